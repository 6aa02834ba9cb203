import type { AttemptOutcome, DeliveryState } from '../store/store.js';

/** One delivery as the demo reports it. */
export interface DemoRow {
  readonly kind: string;
  readonly severity: string | null;
  readonly target: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** Per attempt, oldest first: the HTTP status or SMTP reply code, else the outcome (a network error). */
  readonly answers: readonly (number | AttemptOutcome)[];
}
