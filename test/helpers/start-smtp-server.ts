import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** How the server answers one command: accept it, or refuse it with an SMTP reply. */
export type SmtpReply = 'accept' | { readonly code: number; readonly message: string };

/** The answer to the n-th (1-based) command of its kind (RCPT TO, or DATA) over the server's life. */
export type SmtpScript = (n: number) => SmtpReply;

export const acceptAll: SmtpScript = () => 'accept';

/** Refuses the first `times` commands with `reply`, then accepts (a server that recovers). */
export function failTimes(times: number, reply: Exclude<SmtpReply, 'accept'>): SmtpScript {
  return (n) => (n <= times ? reply : 'accept');
}

export function always(reply: SmtpReply): SmtpScript {
  return () => reply;
}

export interface ReceivedMessage {
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  /** The message exactly as the client sent it after DATA (CRLF line ends, dot-unstuffed). */
  readonly raw: string;
  /** The session was upgraded by STARTTLS (or implicit TLS) when the message was sent. */
  readonly secure: boolean;
  /** The authenticated user, when the session logged in. */
  readonly user: string | undefined;
  /** Id of the SMTP session (one per connection): equal ids mean a reused connection. */
  readonly sessionId: string;
  /** The name the client gave in EHLO (or HELO). */
  readonly ehlo: string;
}

export interface StartSmtpServerOptions {
  readonly rcpt?: SmtpScript;
  readonly data?: SmtpScript;
  /** Require AUTH (PLAIN/LOGIN) with these credentials; allowed over plain text so tests need no TLS. */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** PEM key and certificate: STARTTLS is offered. Without them STARTTLS is not offered at all. */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** With `tls`: TLS from the first byte (port 465 style) instead of STARTTLS. */
  readonly secure?: boolean;
}

export interface RunningSmtpServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly messages: ReceivedMessage[];
  /** Connections accepted so far. */
  connections(): number;
  /** Usernames of failed logins, in order. */
  readonly failedLogins: string[];
  /** Every AUTH the server was sent, right or wrong, and whether the session was under TLS then. */
  readonly logins: { readonly user: string; readonly secure: boolean }[];
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on a free loopback port, recording what it receives, answering as scripted. */
export async function startSmtpServer(options: StartSmtpServerOptions = {}): Promise<RunningSmtpServer> {
  const messages: ReceivedMessage[] = [];
  const failedLogins: string[] = [];
  const logins: { user: string; secure: boolean }[] = [];
  const rcpt = options.rcpt ?? acceptAll;
  const data = options.data ?? acceptAll;
  let rcptCount = 0;
  let dataCount = 0;
  let connections = 0;
  const serverOptions: SMTPServerOptions = {
    logger: false,
    // A pooled client keeps its connection open; do not wait the default 30 s for it on close().
    closeTimeout: 100,
    disabledCommands: [...(options.tls ? [] : ['STARTTLS']), ...(options.auth ? [] : ['AUTH'])],
    authOptional: options.auth === undefined,
    allowInsecureAuth: true,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert, secure: options.secure === true } : {}),
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onAuth(auth, session, callback) {
      logins.push({ user: auth.username ?? '', secure: session.secure });
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        return callback(null, { user: auth.username });
      }
      failedLogins.push(auth.username ?? '');
      callback(smtpError({ code: 535, message: '5.7.8 Authentication credentials invalid' }));
    },
    onRcptTo(_address, _session, callback) {
      rcptCount += 1;
      const reply = rcpt(rcptCount);
      callback(reply === 'accept' ? null : smtpError(reply));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        dataCount += 1;
        const reply = data(dataCount);
        if (reply !== 'accept') return callback(smtpError(reply));
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          mailFrom: mailFrom === false ? '' : mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((entry) => entry.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : undefined,
          sessionId: session.id,
          ehlo: session.hostNameAppearsAs,
        });
        callback(null, `Queued as m${dataCount}`);
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    messages,
    failedLogins,
    logins,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function smtpError(reply: Exclude<SmtpReply, 'accept'>): Error & { responseCode: number } {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}
