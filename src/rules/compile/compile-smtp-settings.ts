import type { SmtpSettings } from '../rules.js';
import { compileCa } from './compile-ca.js';
import { parseSmtpUrl, type SmtpUrlParts } from './parse-smtp-url.js';
import type { TargetContext } from './target-context.js';
import { asBoolean, asNumber, asString, type SmtpYaml } from './target-yaml.js';

/** Settings that the URL form carries in the URL itself. */
const URL_KEYS = ['host', 'port', 'secure', 'auth'] as const;
/** Settings given as an option or, with `url`, as a URL parameter: not both. */
const EITHER_KEYS = ['require_tls', 'allow_insecure_auth', 'name'] as const;

/**
 * `smtp: { url }` or `smtp: { host, port, secure, auth }`, both with `require_tls`, `allow_insecure_auth`,
 * `name` and `ca`. Port and `secure` default the way nodemailer's do: implicit TLS on 465, otherwise STARTTLS
 * when offered on 587. With a password, TLS is required unless `allow_insecure_auth: true`: a server that does
 * not offer STARTTLS would otherwise be sent the password in cleartext.
 */
export function compileSmtpSettings(smtp: SmtpYaml | undefined, target: TargetContext): SmtpSettings {
  const url = asString(smtp?.url);
  const fromUrl = url === undefined ? undefined : compileUrl(url, smtp ?? {}, target);
  if (url === undefined && smtp !== undefined && smtp !== null && !target.isBroken('smtp') && smtp.host === undefined) {
    target.error('missing_option', 'needs url, or host (with port, secure, require_tls, auth as needed)', ['smtp']);
  }
  const port = fromUrl?.port ?? asNumber(smtp?.port);
  const secure = fromUrl?.secure ?? asBoolean(smtp?.secure) ?? port === 465;
  const user = asString(smtp?.auth?.user);
  const pass = asString(smtp?.auth?.pass);
  const auth = fromUrl?.auth ?? (user === undefined || pass === undefined ? null : { user, pass });
  const allowInsecureAuth = fromUrl?.allowInsecureAuth ?? asBoolean(smtp?.allow_insecure_auth) ?? false;
  const requireTls = fromUrl?.requireTls ?? asBoolean(smtp?.require_tls);
  if (auth !== null && !secure && requireTls === false && !allowInsecureAuth) {
    const message =
      'false with auth would send the password in cleartext to a server that does not offer STARTTLS; ' +
      'set allow_insecure_auth: true if that is intended';
    target.error('insecure_auth', message, url === undefined ? ['smtp', 'require_tls'] : ['smtp', 'url']);
  }
  return {
    host: fromUrl?.host ?? asString(smtp?.host) ?? '',
    port: port ?? (secure ? 465 : 587),
    secure,
    requireTls: requireTls ?? (auth !== null && !secure && !allowInsecureAuth),
    allowInsecureAuth,
    auth,
    name: fromUrl?.name ?? asString(smtp?.name) ?? null,
    ca: compileCa(smtp?.ca, target, 'smtp', 'ca'),
  };
}

/** The URL's settings, or undefined when it cannot be read yet (an unset `${VAR}`) or not at all (reported). */
function compileUrl(url: string, smtp: SmtpYaml, target: TargetContext): Partial<SmtpUrlParts> | undefined {
  for (const key of URL_KEYS) {
    if (smtp[key] !== undefined) {
      target.error(
        'conflicting_options',
        `${key} cannot be combined with url (write it in the URL)`,
        ['smtp', key],
        'key',
      );
    }
  }
  if (url.includes('${') || target.isBroken('smtp', 'url')) return undefined;
  const parsed = parseSmtpUrl(url);
  if (parsed === null) {
    target.error('bad_url', 'is not a valid smtp:// or smtps:// URL', ['smtp', 'url']);
    return undefined;
  }
  for (const problem of parsed.problems) target.error('bad_url', problem, ['smtp', 'url']);
  for (const key of EITHER_KEYS) {
    const param = { require_tls: 'requireTls', allow_insecure_auth: 'allowInsecureAuth', name: 'name' } as const;
    if (smtp[key] !== undefined && parsed.parts[param[key]] !== undefined) {
      target.error('conflicting_options', `${key} is also set in the URL: give it once`, ['smtp', key], 'key');
    }
  }
  return withoutUndefined(parsed.parts);
}

function withoutUndefined<T extends object>(parts: T): Partial<T> {
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined)) as Partial<T>;
}
