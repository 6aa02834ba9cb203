import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import { pauseLane } from './delivery-lane.js';
import type { LanePacer } from './lane-pacer.js';
import { targetSignal } from './outcome.js';

/**
 * Pacing in the engine's memory, for a journal with a single engine (SQLite): the lane's token bucket and
 * circuit breaker, spent as deliveries are claimed, told of every outcome.
 */
export function createLocalPacer(store: Store, clock: Clock): LanePacer {
  return {
    async claim(lane, request) {
      const claims = await store.claimDue(request);
      for (let n = 0; n < claims.length; n++) {
        lane.bucket?.take(request.now);
        lane.circuit.started();
      }
      return { claims, blockedUntil: undefined };
    },
    settle(lane, _claimed, outcome) {
      lane.circuit.record(targetSignal(outcome), clock.now());
      if (outcome.kind === 'retry' && outcome.retryAfterMs !== undefined) {
        pauseLane(lane, outcome.retryAfterMs, clock.now());
      }
      return Promise.resolve();
    },
    freesSlotAtAnswer: true,
    recheckMs: 1,
    drain: () => Promise.resolve(),
  };
}
