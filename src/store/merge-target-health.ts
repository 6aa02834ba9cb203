import type { TargetHealth } from './console-journal.js';
import type { DeliveryState } from './delivery-state.js';

/** Per target: pending and dead counts, retrying, and the last error; shared by both journals. */
export function mergeTargetHealth(
  counts: readonly { target: string; state: DeliveryState; count: number; retrying: number }[],
  errors: readonly { target: string; lastError: string; lastErrorAt: number }[],
): TargetHealth[] {
  const names = [...new Set([...counts.map((c) => c.target), ...errors.map((e) => e.target)])].sort();
  return names.map((target) => {
    const of = (state: DeliveryState) => counts.find((c) => c.target === target && c.state === state);
    const error = errors.find((e) => e.target === target);
    return {
      target,
      pending: Number(of('pending')?.count ?? 0),
      dead: Number(of('dead')?.count ?? 0),
      retrying: Number(of('pending')?.retrying ?? 0),
      lastError: error?.lastError ?? null,
      lastErrorAt: error === undefined ? null : Number(error.lastErrorAt),
    };
  });
}
