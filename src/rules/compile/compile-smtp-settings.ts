import type { SmtpSettings } from '../rules.js';
import type { TargetContext } from './target-context.js';
import { asBoolean, asNumber, asString, type SmtpYaml } from './target-yaml.js';

/** Settings that the URL form carries in the URL itself. */
const HOST_FORM_KEYS = ['host', 'port', 'secure', 'require_tls', 'auth'] as const;

/**
 * `smtp: { url }` or `smtp: { host, port, secure, require_tls, auth }`. Port and `secure` default the way
 * nodemailer's do: implicit TLS on 465, otherwise STARTTLS when offered on 587.
 */
export function compileSmtpSettings(smtp: SmtpYaml | undefined, target: TargetContext): SmtpSettings {
  const url = asString(smtp?.url);
  if (url !== undefined) {
    for (const key of HOST_FORM_KEYS) {
      if (smtp?.[key] !== undefined) {
        target.error(
          'conflicting_options',
          `${key} cannot be combined with url (write it in the URL)`,
          ['smtp', key],
          'key',
        );
      }
    }
    // Checked here, not at send time: an unparseable URL would otherwise fail the target's set-up.
    if (!url.includes('${') && !target.isBroken('smtp', 'url') && !/^smtps?:$/.test(urlScheme(url))) {
      target.error('bad_url', 'is not a valid smtp:// or smtps:// URL', ['smtp', 'url']);
    }
    return { url };
  }
  if (smtp !== undefined && smtp !== null && !target.isBroken('smtp') && smtp.host === undefined) {
    target.error('missing_option', 'needs url, or host (with port, secure, require_tls, auth as needed)', ['smtp']);
  }
  const port = asNumber(smtp?.port);
  const secure = asBoolean(smtp?.secure) ?? port === 465;
  const user = asString(smtp?.auth?.user);
  const pass = asString(smtp?.auth?.pass);
  return {
    host: asString(smtp?.host) ?? '',
    port: port ?? (secure ? 465 : 587),
    secure,
    requireTls: asBoolean(smtp?.require_tls) ?? false,
    auth: user === undefined || pass === undefined ? null : { user, pass },
  };
}

function urlScheme(url: string): string {
  return URL.canParse(url) ? new URL(url).protocol : '';
}
