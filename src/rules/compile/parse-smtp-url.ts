import { safeDecode } from '../env/safe-decode.js';

/** The URL parameters Switchyard reads; every other one is refused, never passed on to nodemailer. */
export const SMTP_URL_PARAMETERS = ['require_tls', 'allow_insecure_auth', 'name'] as const;

export interface SmtpUrlParts {
  readonly host: string;
  readonly port: number | undefined;
  readonly secure: boolean;
  readonly auth: { readonly user: string; readonly pass: string } | null;
  readonly requireTls: boolean | undefined;
  readonly allowInsecureAuth: boolean | undefined;
  readonly name: string | undefined;
}

/**
 * `smtp://user:pass@host:port?require_tls=true` read by Switchyard itself: nodemailer would take any query
 * parameter as a transport option (`?tls.rejectUnauthorized=false`, `?maxRequeues=5`, `?pool=false`) and
 * override what the engine relies on, and would ignore a misspelt one silently. Problems name the parameter,
 * never the URL (it may carry the password). Null for a text that is not an smtp:// or smtps:// URL.
 */
export function parseSmtpUrl(text: string): { parts: SmtpUrlParts; problems: string[] } | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return null;
  const problems: string[] = [];
  if (url.pathname !== '' && url.pathname !== '/') problems.push('has a path; an SMTP URL ends after host:port');
  if (url.hash !== '') problems.push('has a #fragment; an SMTP URL ends after host:port and its parameters');
  const flag = (key: string): boolean | undefined => {
    const value = url.searchParams.get(key);
    if (value === null) return undefined;
    if (value === 'true' || value === 'false') return value === 'true';
    problems.push(`URL parameter ${key} must be true or false`);
    return undefined;
  };
  for (const key of new Set(url.searchParams.keys())) {
    if (!(SMTP_URL_PARAMETERS as readonly string[]).includes(key)) {
      problems.push(`URL parameter ${key} is not allowed (allowed: ${SMTP_URL_PARAMETERS.join(', ')})`);
    } else if (url.searchParams.getAll(key).length > 1) problems.push(`URL parameter ${key} is given twice`);
  }
  const name = url.searchParams.get('name') ?? undefined;
  if (name === '') problems.push('URL parameter name must not be empty');
  const user = safeDecode(url.username);
  return {
    parts: {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port === '' ? undefined : Number(url.port),
      secure: url.protocol === 'smtps:',
      auth: user === '' && url.password === '' ? null : { user, pass: safeDecode(url.password) },
      requireTls: flag('require_tls'),
      allowInsecureAuth: flag('allow_insecure_auth'),
      name: name === '' ? undefined : name,
    },
    problems,
  };
}
