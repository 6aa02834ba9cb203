import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { createTransport } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { createGuardedGetSocket } from '../../delivery/targets/create-guarded-get-socket.js';
import type { EmailTargetSpec } from '../../rules/rules.js';

/**
 * Checks an `email` target's SMTP server with nodemailer's `verify()`: connect (through the link-local
 * guard, as the target does), greeting, EHLO, STARTTLS when offered or required (or TLS from the first byte
 * with `secure`), and AUTH when credentials are set; then QUIT. No MAIL FROM, so no message is sent.
 * Rejects with nodemailer's error.
 */
export async function probeSmtp(
  spec: EmailTargetSpec,
  options: { readonly timeoutMs: number; readonly lookup?: LookupFunction | undefined },
): Promise<void> {
  const common: SMTPTransport.Options = {
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    getSocket: createGuardedGetSocket({
      lookup: options.lookup ?? (dnsLookup as LookupFunction),
      allowLinkLocal: spec.allowLinkLocal,
      timeoutMs: options.timeoutMs,
    }),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const smtp = spec.smtp;
  const transporter = createTransport(
    'url' in smtp
      ? { ...common, url: smtp.url }
      : {
          ...common,
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          requireTLS: smtp.requireTls,
          ...(smtp.auth === null ? {} : { auth: { user: smtp.auth.user, pass: smtp.auth.pass } }),
        },
  );
  try {
    await transporter.verify();
  } finally {
    transporter.close();
  }
}
