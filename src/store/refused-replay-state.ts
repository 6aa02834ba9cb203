import type { DeliveryState } from './delivery-state.js';

/**
 * Why `replay` refuses a state to filter on, for the CLI and the admin API alike, or undefined when that state
 * can be replayed (dead, delivered, or none given). Refused rather than answered "re-queued 0": an operator
 * asking for silenced deliveries wants to know that replay never sends them (replayable-sql.ts).
 */
export function refusedReplayState(state: DeliveryState | undefined): string | undefined {
  if (state === undefined || state === 'dead' || state === 'delivered') return undefined;
  if (state === 'pending') return 'pending deliveries are already queued';
  if (state === 'skipped') return 'skipped deliveries were given up on for good and are never replayed';
  return `${state} deliveries are held by noise control on purpose and never replayed`;
}
