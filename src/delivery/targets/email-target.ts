import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { createTransport } from 'nodemailer';
import type { SMTPPoolOptions } from 'nodemailer/lib/smtp-pool';
import type { EmailTargetSpec } from '../../rules/rules.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import { classifySmtpError } from '../classify-smtp-error.js';
import type { Outcome } from '../outcome.js';
import type { DeliveryJob, Target, TargetDeps } from '../target.js';
import { attemptDeadline } from './attempt-deadline.js';
import { buildEmailMessage, type EmailMessage } from './build-email-message.js';
import { createGuardedGetSocket } from './create-guarded-get-socket.js';
import { describeSent } from './describe-sent.js';
import { renderFailure } from './render-failure.js';
import { readTrustedCa } from './read-trusted-ca.js';
import { smtpConnectionOptions } from './smtp-connection-options.js';
import { smtpSecrets } from './smtp-secrets.js';

/**
 * An `email` target: one pooled nodemailer transport per target, at most `policy.concurrency` connections.
 * One `send()` is one SMTP transaction: the pool's own re-queueing is off (`maxRequeues: 0`), so the engine
 * alone decides about retries (the rule that attempts are never multiplied). Throws when its `ca`
 * file cannot be read (the target is then not set up; its deliveries wait).
 */
export function createEmailTarget(spec: EmailTargetSpec, deps: TargetDeps): Target {
  const timeoutMs = spec.policy.timeoutMs;
  const smtp = spec.smtp;
  const transporter = createTransport({
    ...smtpConnectionOptions(smtp, readTrustedCa(smtp.ca)),
    pool: true,
    maxConnections: spec.policy.concurrency,
    maxRequeues: 0,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // Closed with a polite QUIT before the socket timeout would cut an idle pooled connection.
    idleTimeout: Math.max(1, Math.floor(timeoutMs / 2)),
    getSocket: createGuardedGetSocket({
      lookup: deps.lookup ?? (dnsLookup as LookupFunction),
      allowLinkLocal: spec.allowLinkLocal,
      timeoutMs,
    }),
    // Nothing we send names a file or URL to attach; refuse them should a future option ever pass one on.
    disableFileAccess: true,
    disableUrlAccess: true,
  } satisfies SMTPPoolOptions);
  const secrets = smtpSecrets(smtp);
  // Failures reach each send's callback; an 'error' event without a listener would end the process instead.
  transporter.on('error', (error: unknown) => {
    const outcome = classifySmtpError(error, secrets);
    deps.log.warn('e-mail transport error', { target: spec.name, error: 'error' in outcome ? outcome.error : '' });
  });
  let closed = false;

  async function send(job: DeliveryJob, signal: AbortSignal): Promise<Outcome> {
    if (signal.aborted) return { kind: 'retry', error: 'not sent: delivery was cancelled (shutting down)' };
    let message: EmailMessage;
    try {
      message = buildEmailMessage(spec, job, buildTemplateContext(job));
    } catch (error) {
      return renderFailure(error, 'the e-mail');
    }
    const owed = owedRecipients(job.owed, [...message.to, ...message.cc]);
    if (owed !== null && owed.length === 0) {
      return { kind: 'delivered', detail: 'not sent: no recipient still owed the message is configured any more' };
    }
    const envelope = owed === null ? {} : { envelope: { from: envelopeSender(message.from), to: owed } };
    const deadline = attemptDeadline(signal, timeoutMs);
    try {
      const info = await transporter.sendMail({ ...message, ...envelope, signal: deadline.signal });
      return describeSent(info, spec.onPartialRefusal, secrets);
    } catch (error) {
      if (signal.aborted) return { kind: 'retry', error: 'aborted: delivery was cancelled (shutting down)' };
      if (deadline.timedOut()) return { kind: 'retry', error: `SMTP attempt timed out after ${timeoutMs} ms` };
      const outcome = classifySmtpError(error, secrets);
      const refused = refusedOf(error);
      return outcome.kind === 'delivered' || refused.length === 0 ? outcome : { ...outcome, refused };
    } finally {
      deadline.dispose();
    }
  }

  return {
    send,
    async close() {
      if (closed) return;
      closed = true;
      transporter.close();
    },
  };
}

/** The configured recipients an earlier attempt left owed (compared case-insensitively), or null: every one. */
function owedRecipients(owed: readonly string[] | null | undefined, configured: readonly string[]): string[] | null {
  if (owed === null || owed === undefined) return null;
  const wanted = new Set(owed.map((address) => address.toLowerCase()));
  return configured.filter((address) => wanted.has(address.toLowerCase()));
}

/** `Switchyard <switchyard@example.com>` → `switchyard@example.com`, for an envelope given by hand. */
function envelopeSender(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

/** Every recipient refused: nodemailer's error lists them (`rejected`). */
function refusedOf(error: unknown): string[] {
  const rejected = typeof error === 'object' && error !== null ? (error as { rejected?: unknown }).rejected : undefined;
  return Array.isArray(rejected) ? rejected.filter((address): address is string => typeof address === 'string') : [];
}
