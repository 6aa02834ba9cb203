import type { PartialRefusalPolicy } from '../../rules/rules.js';
import { classifySmtpError } from '../classify-smtp-error.js';
import type { Outcome } from '../outcome.js';
import { redactDetail } from '../redact-detail.js';

interface SentInfo {
  readonly response?: unknown;
  readonly accepted?: unknown;
  readonly rejectedErrors?: unknown;
}

/**
 * A message the server took, read per recipient. All taken: delivered. Some refused (RCPT TO answered 4xx or
 * 5xx): the refused ones are named with the server's answer and listed in `refused` (logged and counted by
 * the engine), and `policy` decides: `delivered` counts it delivered; `dead_letter` dead-letters it at once;
 * `retry_refused` (the default) treats the refused recipients as a failed message of their own, retried
 * after a 4xx and dead-lettered after a 5xx. Either way they are `owed`: a retry or replay sends to them only,
 * never again to the recipients that have the message.
 */
export function describeSent(info: SentInfo, policy: PartialRefusalPolicy, secrets: readonly string[]): Outcome {
  const response = typeof info.response === 'string' ? redactDetail(info.response, secrets) : '';
  const code = /^\d{3}/.exec(response);
  const status = code === null ? undefined : Number(code[0]);
  const errors: unknown[] = Array.isArray(info.rejectedErrors) ? info.rejectedErrors : [];
  if (errors.length === 0) return { kind: 'delivered', status, detail: response };
  const refusals = errors.map((error) => ({
    ...readRefusal(error, secrets),
    outcome: classifySmtpError(error, secrets),
  }));
  const refused = refusals.map((refusal) => refusal.recipient);
  const accepted = Array.isArray(info.accepted) ? info.accepted.filter((a): a is string => typeof a === 'string') : [];
  const named = `refused for ${refusals.map((r) => `${r.recipient} (${r.answer})`).join(', ')}`;
  const took = `accepted for ${accepted.join(', ')}`;
  if (policy === 'delivered') {
    return { kind: 'delivered', status, detail: [response, took, named].join('; '), refused };
  }
  const error = `${named}; ${took} (not sent to them again)`;
  const lasting = refusals.find((refusal) => refusal.outcome.kind === 'permanent');
  const refusedStatus = (lasting ?? refusals[0])?.outcome.status;
  if (policy === 'dead_letter' || lasting !== undefined) {
    return { kind: 'permanent', status: refusedStatus, error, refused, owed: refused };
  }
  return { kind: 'retry', status: refusedStatus, error, refused, owed: refused };
}

/** nodemailer's error for one refused RCPT TO: the address and the server's reply line. */
function readRefusal(error: unknown, secrets: readonly string[]): { recipient: string; answer: string } {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const recipient = typeof record['recipient'] === 'string' ? record['recipient'] : '(unknown recipient)';
  const answer = typeof record['response'] === 'string' ? record['response'] : String(record['message'] ?? error);
  return { recipient, answer: redactDetail(answer, secrets) };
}
