import type { Envelope } from '../ingest/envelope.js';
import { readSeverity } from '../rules/match/read-severity.js';
import type { CompiledRules } from '../rules/rules.js';
import type { DeliveryHold } from '../store/store.js';
import type { CompiledSilence } from './compile-silence.js';
import { findSilence } from './find-silence.js';

/**
 * The holds for an event's deliveries when a silence in force matches it: every delivery is recorded as
 * `silenced` by that silence (the event is journaled and routed as usual, never sent). Undefined when no
 * silence holds it, which costs one map lookup for an event kind no silence names.
 */
export function silenceHolds(
  candidates: readonly CompiledSilence[],
  rules: CompiledRules,
  envelope: Envelope,
  targets: readonly string[],
  now: number,
): { readonly silenceId: string; readonly holds: readonly DeliveryHold[] } | undefined {
  if (candidates.length === 0 || targets.length === 0) return undefined;
  const { severity, rank } = readSeverity(envelope.data, rules.severities, rules.severityRanks);
  const found = findSilence(candidates, { envelope, severity, rank }, now);
  if (found === undefined) return undefined;
  const hold: DeliveryHold = { state: 'silenced', by: found.silence.id };
  return { silenceId: found.silence.id, holds: targets.map(() => hold) };
}
