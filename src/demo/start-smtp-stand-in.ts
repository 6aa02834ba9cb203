import { SMTPServer } from 'smtp-server';
import { listenOnLoopback } from './listen-on-loopback.js';
import { readMailHeader } from './read-mail-header.js';

export interface ReceivedMail {
  readonly from: string;
  /** Envelope recipients (To and Cc together). */
  readonly to: readonly string[];
  readonly subject: string;
  readonly raw: string;
}

export interface SmtpStandIn {
  /** `smtp://127.0.0.1:<port>`: plain SMTP, no STARTTLS, no login. */
  readonly url: string;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A local SMTP server (the `smtp-server` package) that accepts every message and keeps it. */
export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    // Not offering STARTTLS keeps the demo free of certificates; the e-mail target then sends in plain text.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    // The e-mail target pools connections; close() should not wait smtp-server's default 30 s for them.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        mails.push({
          from: from === false ? '' : from.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: readMailHeader(raw, 'subject') ?? '',
          raw,
        });
        callback(null, `queued as demo-${mails.length}`);
      });
    },
  });
  // smtp-server re-emits client socket errors (a reset connection) on itself; unhandled, they would end the demo.
  server.on('error', () => undefined);
  const port = await listenOnLoopback(server.server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
