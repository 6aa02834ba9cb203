import type { Outcome } from '../outcome.js';
import { classifySmtpError } from '../classify-smtp-error.js';

interface SentInfo {
  readonly response?: unknown;
  readonly rejected?: unknown;
  readonly rejectedErrors?: unknown;
}

/**
 * A message the server took for at least one recipient is delivered: retrying it for the refused ones would
 * send it again to everyone who already has it. The refused recipients are named in the detail, so the
 * attempt history shows them.
 */
export function describeDelivered(info: SentInfo, secrets: readonly string[]): Outcome {
  const response = typeof info.response === 'string' ? info.response : '';
  const code = /^\d{3}/.exec(response);
  const rejected = Array.isArray(info.rejectedErrors) ? info.rejectedErrors : [];
  const refusals = rejected.map((error: unknown) => classifySmtpError(error, secrets)).map(excerptOf);
  const detail = [response, ...refusals.map((text) => `refused: ${text}`)].filter((part) => part !== '').join('; ');
  return { kind: 'delivered', status: code === null ? undefined : Number(code[0]), detail };
}

function excerptOf(outcome: Outcome): string {
  return outcome.kind === 'delivered' ? (outcome.detail ?? '') : outcome.error;
}
