import type { PathSegment } from '../source/locate-path.js';
import { secretVariants } from './secret-variants.js';

/**
 * Options that name or address something and carry no credential: a value from `${VAR}` there is not
 * masked, or a user name such as `switchyard` would be masked in every log line. (A user name still is
 * masked with its password as `user:pass`, see `credentialPairs`.) Keys are the option's path in the target.
 */
const PLAIN = new Set([
  'auth.username',
  'smtp.auth.user',
  'smtp.host',
  'smtp.port',
  'smtp.name',
  // Certificates are public; masking one would only cost time on every line logged.
  'smtp.ca',
  'ca',
  'from',
  'to',
  'cc',
  'channel',
  'username',
  'icon_emoji',
  'method',
  'content_type',
]);
/** Options holding a URL: masked whole, and by its secret parts only (see `secretVariants`). */
const URLS = new Set(['url', 'webhook_url', 'smtp.url', 'base_url']);

/**
 * What to mask for values substituted from the environment at `path` (`['targets', name, ...option]`).
 * Options that name or address something are not secret; URLs are masked whole and by their secret parts;
 * every other option (tokens, passwords, header values, signing secrets, and anything not listed, such as
 * a body field, to be safe) is masked whole, as is a value from `${VAR}` inside a URL (`.../${TOKEN}`)
 * that is not a URL itself.
 */
export function targetOptionSecrets(path: readonly PathSegment[], substituted: readonly string[]): string[] {
  const option = path
    .slice(2)
    .filter((segment) => typeof segment === 'string')
    .join('.');
  if (PLAIN.has(option)) return [];
  // A URL from a variable (`${URL}`, or `${BASE}/hooks`) gets the URL treatment; any other part of a URL
  // from a variable (`https://h/hooks/${TOKEN}`) is secret whole.
  if (URLS.has(option)) return substituted.flatMap((part) => (URL.canParse(part) ? secretVariants(part) : [part]));
  return [...substituted];
}

/**
 * `user:pass` and `\0user\0pass` for a target's Basic auth and SMTP credentials whose password came from the
 * environment: Basic auth sends the first base64-encoded and SMTP AUTH PLAIN the second, and a receiver that
 * echoes the header must not get them stored or logged.
 */
export function credentialPairs(target: unknown, isFromEnv: (option: readonly string[]) => boolean): string[] {
  const pairs: string[] = [];
  const at = (...keys: string[]): unknown =>
    keys.reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      target,
    );
  const add = (user: unknown, pass: unknown, option: string[]): void => {
    if (typeof user === 'string' && typeof pass === 'string' && isFromEnv(option)) {
      pairs.push(`${user}:${pass}`, `\u0000${user}\u0000${pass}`);
    }
  };
  add(at('auth', 'username'), at('auth', 'password'), ['auth', 'password']);
  add(at('smtp', 'auth', 'user'), at('smtp', 'auth', 'pass'), ['smtp', 'auth', 'pass']);
  return pairs;
}
