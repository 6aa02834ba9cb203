import type { Envelope } from '../ingest/envelope.js';
import { compileRegex } from '../rules/compile/compile-regex.js';
import { readSeverity } from '../rules/match/read-severity.js';
import type { CompiledRules } from '../rules/rules.js';
import type { StoredSilence } from '../store/stored-silence.js';
import { compileSilence, type CompiledSilence } from './compile-silence.js';
import { findSilence } from './find-silence.js';

/** What `switchyard route` and the admin route test say about silences: the one that would hold the event. */
export interface SilenceExplanation {
  readonly id: string;
  readonly comment: string;
  readonly createdBy: string;
  /** ISO 8601 (UTC). */
  readonly endsAt: string;
}

/**
 * The silence that would hold this event at `now`, among `silences` (as read from the journal), decided as
 * ingest decides it; null when none would. Silences that no longer fit the rules are skipped, as at ingest.
 */
export function explainSilence(
  silences: readonly StoredSilence[],
  rules: CompiledRules,
  envelope: Envelope,
  now: number,
): SilenceExplanation | null {
  const compiled = [...silences]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .flatMap((silence): CompiledSilence[] => {
      const result = compileSilence(silence, rules, compileRegex);
      return result.ok ? [result.compiled] : [];
    });
  const { severity, rank } = readSeverity(envelope.data, rules.severities, rules.severityRanks);
  const found = findSilence(compiled, { envelope, severity, rank }, now)?.silence;
  if (found === undefined) return null;
  return {
    id: found.id,
    comment: found.comment,
    createdBy: found.createdBy,
    endsAt: new Date(found.endsAt).toISOString(),
  };
}
