/**
 * What one attempt came to, decided by the target module (it knows its protocol) and acted on by the engine
 * only (it alone schedules retries and dead-letters): 2xx delivered; network errors, timeouts, 408, 425, 429,
 * 5xx and SMTP 4xx retryable; other 4xx and SMTP 5xx permanent.
 */
export type Outcome =
  | {
      readonly kind: 'delivered';
      readonly status?: number | undefined;
      /** A short excerpt of the answer, e.g. Slack's `ok` or the SMTP server's queue id line. */
      readonly detail?: string | undefined;
      /** Issue 14: values captured from the answer (a ticket key, a Slack `ts`), remembered for the key. */
      readonly captured?: Readonly<Record<string, string>> | undefined;
      /** E-mail: recipients the server refused although it took the message (`on_partial_refusal: delivered`). */
      readonly refused?: readonly string[] | undefined;
      /** A `capture:` the answer gave no value for, described (capture-miss.ts): a warning, not a failure. */
      readonly captureMiss?: string | undefined;
    }
  | {
      readonly kind: 'retry';
      readonly status?: number | undefined;
      /** A short human-readable reason; the engine redacts secrets and URLs and truncates it. */
      readonly error: string;
      /** From `Retry-After` (seconds or HTTP date), already converted to a delay from now. */
      readonly retryAfterMs?: number | undefined;
      /**
       * The receiver is rate limiting (HTTP 429), not failing: the target pauses, and the attempt counts neither
       * toward opening its circuit nor against the delivery's `max_attempts`.
       */
      readonly rateLimited?: boolean | undefined;
      readonly refused?: readonly string[] | undefined;
      readonly owed?: readonly string[] | undefined;
    }
  | {
      /**
       * Nothing to send, and nothing ever will be (a resolve for a key with no delivered create and nothing
       * captured): the delivery is recorded `skipped` with the reason and no longer holds its key's line.
       */
      readonly kind: 'skipped';
      readonly status?: number | undefined;
      readonly error: string;
      readonly refused?: readonly string[] | undefined;
      readonly owed?: readonly string[] | undefined;
    }
  | {
      readonly kind: 'permanent';
      readonly status?: number | undefined;
      readonly error: string;
      /** E-mail: recipients the server refused in this attempt; the engine logs and counts them. */
      readonly refused?: readonly string[] | undefined;
      /**
       * E-mail: the recipients that still have not got the message (the others have); recorded with the
       * delivery, so later attempts (a replay, a restart) send to these only. Absent = every recipient.
       */
      readonly owed?: readonly string[] | undefined;
    };

/** What an outcome says about its target (not the delivery), for the circuit breaker and the pause. */
export type TargetSignal = 'delivered' | 'retry' | 'rate-limited' | 'permanent';

export function targetSignal(outcome: Outcome): TargetSignal {
  // A skip reached nothing, so it says no more than a delivery does about the target's health.
  if (outcome.kind === 'skipped') return 'delivered';
  return outcome.kind === 'retry' && outcome.rateLimited === true ? 'rate-limited' : outcome.kind;
}
