import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { SmtpSettings } from '../../rules/rules.js';

/**
 * What nodemailer is told about the server, the same for the target and `doctor`: only the settings Switchyard
 * compiled (the URL form is read by Switchyard, never handed over), so no option the engine relies on can be
 * overridden from the rules file. `ca` replaces the public roots for this server only.
 */
export function smtpConnectionOptions(smtp: SmtpSettings, ca: string | undefined): SMTPTransport.Options {
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    ...(smtp.auth === null ? {} : { auth: { user: smtp.auth.user, pass: smtp.auth.pass } }),
    ...(smtp.name === null ? {} : { name: smtp.name }),
    ...(ca === undefined ? {} : { tls: { ca } }),
  };
}
