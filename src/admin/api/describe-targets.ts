import type { TargetStatus } from '../../delivery/target-status.js';
import type { CompiledRules } from '../../rules/rules.js';
import type { DeliveryState } from '../../store/store.js';

export interface TargetReport {
  readonly name: string;
  /** Null for a target the journal still has deliveries for but the rules no longer define. */
  readonly type: string | null;
  readonly inRules: boolean;
  readonly pending: number;
  readonly dead: number;
  readonly inFlight: number;
  readonly awaitingRecord: number;
  /** Null when the engine has no lane for the target (not in the rules, or before its first pass). */
  readonly circuit: TargetStatus['circuit'] | null;
  /** While the circuit is open: when the next probe is due (ISO 8601, never in the past); null otherwise. */
  readonly nextProbeAt: string | null;
  /** While the target asked for a pause (`Retry-After`, a 429): when it ends (ISO 8601); null otherwise. */
  readonly pausedUntil: string | null;
}

/** Each target of the rules, then each other target the journal knows, by name, with counts and engine state. */
export function describeTargets(
  rules: CompiledRules,
  status: readonly TargetStatus[],
  counts: readonly { target: string; state: DeliveryState; count: number }[],
): TargetReport[] {
  const names = new Set([...rules.targets.keys(), ...counts.map((c) => c.target)]);
  const count = (target: string, state: DeliveryState): number =>
    counts.find((c) => c.target === target && c.state === state)?.count ?? 0;
  return [...names].sort().map((name) => {
    const lane = status.find((s) => s.target === name);
    return {
      name,
      type: rules.targets.get(name)?.type ?? null,
      inRules: rules.targets.has(name),
      pending: count(name, 'pending'),
      dead: count(name, 'dead'),
      inFlight: lane?.inFlight ?? 0,
      awaitingRecord: lane?.awaitingRecord ?? 0,
      circuit: lane?.circuit ?? null,
      nextProbeAt: iso(lane?.nextProbeAt),
      pausedUntil: iso(lane?.pausedUntil),
    };
  });
}

function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}
