import type { SmtpSettings } from '../../rules/rules.js';

/**
 * The values an SMTP error excerpt must never show: the password (also with the user as AUTH PLAIN sends
 * them, `\0user\0pass`, and as `user:pass`; the excerpt masks their base64 forms too). The user name alone is
 * not secret: servers quote it, and it is often a plain word. (A URL from `${VAR}` is masked by the rules.)
 */
export function smtpSecrets(smtp: SmtpSettings): string[] {
  const credentials = smtp.auth;
  if (credentials === null || credentials.pass === '') return [];
  return [
    credentials.pass,
    `${credentials.user}:${credentials.pass}`,
    `\u0000${credentials.user}\u0000${credentials.pass}`,
  ];
}
