import type { PostgresMigration } from '../postgres-migration.js';

/**
 * When the newest failure counted against a target was answered (src/delivery/pacing/apply-verdict.ts).
 * Instances write their verdicts in no common order, so a success written after another instance's failures may
 * have been answered before them: only this column tells. Without it a late success reset the failure count of a
 * circuit about to open, and an open circuit's opening was inferred from `open_until` less the cool-down, which a
 * rules reload can change. NULL for rows written before this migration (the fold falls back to that inference)
 * and for failures an older instance counts during a rolling upgrade: it never writes this column, so the value
 * may be older than the newest failure, which leaves the fold as permissive as it was before this migration.
 * `IF NOT EXISTS`: the tests that rebuild an older journal replay the migrations after theirs.
 */
export const pacingLastFailureMigration: PostgresMigration = {
  version: 9,
  name: 'pacing-last-failure',
  sql: `ALTER TABLE target_pacing ADD COLUMN IF NOT EXISTS last_failure_at bigint;`,
};
