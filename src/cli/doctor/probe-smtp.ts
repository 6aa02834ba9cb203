import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import { TLSSocket, type DetailedPeerCertificate } from 'node:tls';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { createGuardedGetSocket } from '../../delivery/targets/create-guarded-get-socket.js';
import { readTrustedCa } from '../../delivery/targets/read-trusted-ca.js';
import { smtpConnectionOptions } from '../../delivery/targets/smtp-connection-options.js';
import type { EmailTargetSpec } from '../../rules/rules.js';

export interface SmtpProbe {
  /** The session was under TLS (from the first byte, or after STARTTLS) when it logged in, or at its end. */
  readonly tls: boolean;
  /** It logged in (credentials set and the server offered AUTH). */
  readonly loggedIn: boolean;
  /** The EHLO name it gave. */
  readonly name: string;
  /** The server's certificates as received, the server's own first: `CN=mail.example.com (issued by CN=...)`. */
  readonly chain: readonly string[];
}

export interface ProbeSmtpOptions {
  readonly timeoutMs: number;
  readonly lookup?: LookupFunction | undefined;
  /**
   * False: only to show the certificate chain of a server whose certificate failed verification: it is not
   * checked, and no login is tried over such a connection.
   */
  readonly verify?: boolean;
}

/**
 * Checks an `email` target's SMTP server as the target connects: through the link-local guard, greeting,
 * EHLO, STARTTLS when offered or required (or TLS from the first byte with `secure`), and AUTH when
 * credentials are set; then QUIT. No MAIL FROM, so no message is sent. Rejects with nodemailer's error.
 */
export async function probeSmtp(spec: EmailTargetSpec, options: ProbeSmtpOptions): Promise<SmtpProbe> {
  const verify = options.verify ?? true;
  const base = smtpConnectionOptions(spec.smtp, readTrustedCa(spec.smtp.ca));
  const socket = await new Promise<Socket>((resolve, reject) => {
    const getSocket = createGuardedGetSocket({
      lookup: options.lookup ?? (dnsLookup as LookupFunction),
      allowLinkLocal: spec.allowLinkLocal,
      timeoutMs: options.timeoutMs,
    });
    getSocket(base, (error, opened) =>
      error ? reject(error) : resolve((opened as { connection: Socket }).connection),
    );
  });
  const connection = new SMTPConnection({
    ...base,
    ...(verify ? {} : { tls: { ...base.tls, rejectUnauthorized: false }, requireTLS: false, auth: undefined }),
    connection: socket,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  } as SMTPConnection.Options);
  try {
    await run(connection, (done) => connection.connect(done));
    const auth = verify ? spec.smtp.auth : null;
    const tls = connection._socket instanceof TLSSocket;
    const loggedIn = auth !== null && connection.allowsAuth;
    // A copy: nodemailer adds to the object it is given, and the compiled rules are frozen.
    if (loggedIn) await run(connection, (done) => connection.login({ user: auth.user, pass: auth.pass }, done));
    connection.quit();
    return { tls, loggedIn, name: connection.name, chain: tls ? describeChain(connection._socket as TLSSocket) : [] };
  } finally {
    connection.close();
  }
}

/** Runs one step of the session; the connection's 'error' event (a dropped socket) rejects it too. */
function run(connection: SMTPConnection, step: (done: (error?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    connection.once('error', onError);
    step((error) => {
      connection.removeListener('error', onError);
      if (error) reject(error);
      else resolve();
    });
  });
}

function describeChain(socket: TLSSocket): string[] {
  const chain: string[] = [];
  const seen = new Set<string>();
  for (let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true); cert?.raw;) {
    const fingerprint = cert.fingerprint256;
    if (seen.has(fingerprint)) break;
    seen.add(fingerprint);
    const subject = nameOf(cert.subject);
    const issuer = nameOf(cert.issuer);
    const until = new Date(cert.valid_to).toISOString().slice(0, 10);
    chain.push(`${subject} (${issuer === subject ? 'self-signed' : `issued by ${issuer}`}, valid until ${until})`);
    cert = cert.issuerCertificate;
  }
  return chain;
}

function nameOf(name: Readonly<Record<string, string | string[] | undefined>> | undefined): string {
  const cn = name?.['CN'];
  const o = name?.['O'];
  return (
    [cn === undefined ? '' : `CN=${String(cn)}`, o === undefined ? '' : `O=${String(o)}`]
      .filter((part) => part !== '')
      .join(', ') || '(no name)'
  );
}
