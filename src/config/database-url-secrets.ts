import { safeDecode } from '../rules/env/safe-decode.js';

/**
 * What to mask in logs for a database URL: the URL itself and its password, which travels alone in some
 * messages (as written and percent-decoded, and as a `password` query parameter, which libpq also accepts).
 * Unlike `secretVariants` for target URLs, the path is left alone: it is only the database name
 * (`/switchyard`), and masking it would mangle every log line that mentions a path containing it.
 */
export function databaseUrlSecrets(url: string): string[] {
  const secrets = [url];
  if (!URL.canParse(url)) return secrets;
  const parsed = new URL(url);
  const passwords = [parsed.password, safeDecode(parsed.password), ...parsed.searchParams.getAll('password')];
  for (const password of passwords) if (password !== '' && !secrets.includes(password)) secrets.push(password);
  return secrets;
}
