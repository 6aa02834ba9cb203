import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
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
import { describeDelivered } from './describe-delivered.js';
import { renderFailure } from './render-failure.js';
import { smtpSecrets } from './smtp-secrets.js';

/** What the rules file cannot set (yet): extra TLS options, e.g. the CA of a test or in-house relay. */
export interface EmailTargetExtras {
  readonly tls?: ConnectionOptions | undefined;
}

/**
 * An `email` target: one pooled nodemailer transport per target, at most `policy.concurrency` connections.
 * One `send()` is one SMTP transaction: the pool's own re-queueing is off (`maxRequeues: 0`), so the engine
 * alone decides about retries (the rule that attempts are never multiplied).
 */
export function createEmailTarget(spec: EmailTargetSpec, deps: TargetDeps, extras: EmailTargetExtras = {}): Target {
  const timeoutMs = spec.policy.timeoutMs;
  const pool: SMTPPoolOptions = {
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
    ...(extras.tls === undefined ? {} : { tls: extras.tls }),
  };
  const smtp = spec.smtp;
  const transporter = createTransport(
    'url' in smtp
      ? { ...pool, url: smtp.url }
      : {
          ...pool,
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          requireTLS: smtp.requireTls,
          ...(smtp.auth === null ? {} : { auth: { user: smtp.auth.user, pass: smtp.auth.pass } }),
        },
  );
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
    const deadline = attemptDeadline(signal, timeoutMs);
    try {
      const info = await transporter.sendMail({ ...message, signal: deadline.signal });
      return describeDelivered(info, secrets);
    } catch (error) {
      if (signal.aborted) return { kind: 'retry', error: 'aborted: delivery was cancelled (shutting down)' };
      if (deadline.timedOut()) return { kind: 'retry', error: `SMTP attempt timed out after ${timeoutMs} ms` };
      return classifySmtpError(error, secrets);
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
