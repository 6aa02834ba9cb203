import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { ClaimedDelivery } from '../store/store.js';
import { adjustInFlight, markSettling, type DeliveryLane } from './delivery-lane.js';
import type { LanePacer } from './lane-pacer.js';
import { logCircuitTransition } from './log-circuit-transition.js';
import { targetSignal } from './outcome.js';
import { runAttempt } from './run-attempt.js';
import { settleAttempt, type SettleContext } from './settle-attempt.js';
import type { TargetClients } from './target-clients.js';

export interface AttemptDeps {
  readonly lanes: ReadonlyMap<string, DeliveryLane>;
  readonly clients: TargetClients;
  readonly pacer: LanePacer;
  readonly settle: SettleContext;
  readonly log: Logger;
  readonly clock: Clock;
  readonly random: () => number;
  /** Shutdown past its grace: attempts in flight are aborted. */
  readonly signal: AbortSignal;
  readonly secrets: () => readonly string[];
  /** Looks at the lane again: its slot is free, or its record committed (a key's next delivery may go). */
  readonly wake: (targets: readonly string[]) => void;
}

/**
 * One claimed delivery from its send to its committed record: the lane's slot, the target's client, the
 * pacing verdict, the record. Resolves once all of that is done (shutdown waits for it), but for a delivered
 * attempt's verdict, which the pacer's drain waits for; never rejects.
 */
export function launchAttempt(
  deps: AttemptDeps,
  lane: DeliveryLane,
  claimed: ClaimedDelivery,
  leaseEnd: number,
): Promise<void> {
  const { lanes, clients, log, clock, signal } = deps;
  const { target } = lane;
  const name = lane.spec.name;
  const id = claimed.delivery.id;
  lane.inFlight += 1;
  clients.use(target);
  let answered = false;
  const attempt = { claimed, target, spec: lane.spec, clock, random: deps.random, signal, secrets: deps.secrets() };
  return runAttempt(attempt)
    .then(async (result) => {
      const reported = deps.pacer.settle(lane, claimed, result.outcome, signal.aborted);
      if (targetSignal(result.outcome) === 'retry') lane.lastFailure = result.record.attempt.detail ?? undefined;
      logCircuitTransition(lane, clock.now(), log);
      // A failure's verdict before its record: on a shared journal the verdict (circuit, Retry-After pause) is a
      // write of its own, and the record ends the claim that other instances count. Recorded first, another
      // instance could claim before the verdict commits and send into an outage or a pause (seen in CI under
      // load). A delivery's verdict can only close the circuit, and not one that opened after it was answered
      // (apply-verdict.ts: instances write verdicts in no common order); another instance that claims before it
      // commits sees the target more closed than it is, never more open. So its record goes at once, and the
      // slot does not wait for the verdict (the pacer's drain does, at shutdown).
      const delivered = targetSignal(result.outcome) === 'delivered';
      if (!delivered) await reported;
      const settled = settleAttempt(deps.settle, name, claimed, result, signal.aborted, leaseEnd);
      // Delivered, the target is done with it: the slot is free while the record commits, so the next claim goes
      // out at the end of this turn of the event loop, not after the commit (issue 11; DeliveryLane.settling). A
      // failure keeps its slot until then, so that the circuit sees an outage's failures before more start.
      if (deps.pacer.freesSlotAtAnswer && delivered) {
        answered = true;
        adjustInFlight(lanes, lane, -1);
        markSettling(lanes, lane, id, true);
        // Not when the last claim found nothing more to send: only this record's commit (which wakes the lane)
        // or new deliveries (whose ingest does) can change that, and a claim is a write transaction.
        if (!(lanes.get(name) ?? lane).claimedAll) deps.wake([name]);
      }
      await settled;
    })
    .catch((error: unknown) => log.error('settling a delivery attempt failed', { error: String(error) }))
    .finally(() => {
      if (answered) markSettling(lanes, lane, id, false);
      else adjustInFlight(lanes, lane, -1);
      clients.release(target);
      deps.wake([name]);
    });
}
