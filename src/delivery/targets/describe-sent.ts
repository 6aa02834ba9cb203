import type { PartialRefusalPolicy } from '../../rules/rules.js';
import { classifySmtpError } from '../classify-smtp-error.js';
import type { Outcome } from '../outcome.js';

interface SentInfo {
  readonly response?: unknown;
  readonly rejected?: unknown;
  readonly rejectedErrors?: unknown;
}

/**
 * A message the server took, read per recipient. All taken: delivered. Some refused (RCPT TO answered 4xx or
 * 5xx): the refused ones are named in the detail and in `refused` (logged and counted by the engine), and
 * `policy` decides: `delivered` counts it delivered; `dead_letter` dead-letters it at once; `retry_refused`
 * (the default) treats the refused recipients as a failed message of their own, retried after a 4xx and
 * dead-lettered after a 5xx. Either way they are `owed`: a retry or replay sends to them only, never again to
 * the recipients that have the message.
 */
export function describeSent(info: SentInfo, policy: PartialRefusalPolicy, secrets: readonly string[]): Outcome {
  const response = typeof info.response === 'string' ? info.response : '';
  const code = /^\d{3}/.exec(response);
  const status = code === null ? undefined : Number(code[0]);
  const refused = Array.isArray(info.rejected) ? info.rejected.filter((r): r is string => typeof r === 'string') : [];
  const errors: unknown[] = Array.isArray(info.rejectedErrors) ? info.rejectedErrors : [];
  const refusals = errors.map((error) => classifySmtpError(error, secrets));
  const reasons = refusals.map((outcome) => `refused: ${outcome.kind === 'delivered' ? '' : outcome.error}`);
  const detail = [response, ...reasons].filter((part) => part !== '').join('; ');
  if (refused.length === 0) return { kind: 'delivered', status, detail };
  if (policy === 'delivered') return { kind: 'delivered', status, detail, refused };
  const error = `accepted for the other recipients, refused for ${refused.join(', ')}: ${reasons.join('; ')}`;
  const lasting = refusals.find((outcome) => outcome.kind === 'permanent');
  if (policy === 'dead_letter' || lasting !== undefined) {
    const refusedStatus = (lasting ?? refusals[0])?.status;
    return { kind: 'permanent', status: refusedStatus, error, refused, owed: refused };
  }
  return { kind: 'retry', status: refusals[0]?.status, error, refused, owed: refused };
}
