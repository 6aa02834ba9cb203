import type { Logger } from '../log/logger.js';
import { laneCircuit, type DeliveryLane } from './delivery-lane.js';

/**
 * Logs each circuit transition once, as this engine sees it (on a shared journal, at its claims): opening is a
 * warning, with the failure that opened it and when the probe is due; half-opening and closing are info.
 */
export function logCircuitTransition(lane: DeliveryLane, now: number, log: Logger): void {
  const { state, nextProbeAt } = laneCircuit(lane, now);
  if (state === lane.circuitLogged) return;
  const lastAnswer = lane.lastFailure;
  const fields = {
    target: lane.spec.name,
    state,
    previous: lane.circuitLogged,
    reason:
      state === 'open'
        ? `${lane.circuitLogged === 'half-open' ? 'the probe failed' : 'consecutive failures'}${lastAnswer === undefined ? '' : `: ${lastAnswer}`}`
        : state === 'half-open'
          ? 'the cool-down is over: one delivery probes the target'
          : 'a delivery succeeded',
    next_probe_at: nextProbeAt === undefined ? undefined : new Date(nextProbeAt).toISOString(),
  };
  lane.circuitLogged = state;
  if (state === 'open') log.warn('circuit opened: deliveries to the target wait, spending no attempts', fields);
  else if (state === 'half-open') log.info('circuit half-open: probing the target', fields);
  else log.info('circuit closed: the target answers again', fields);
}
