import type { PostgresMigration } from '../postgres-migration.js';

/**
 * As SQLite's `repairs` migration (src/store/sqlite/migrations/), which says why: the `skipped` state and
 * attempt outcome, and the audit trail of repairs by hand. `IF NOT EXISTS`:
 * the tests that rebuild an older journal replay the migrations after theirs.
 */
export const repairsMigration: PostgresMigration = {
  version: 12,
  name: 'repairs',
  sql: `
    ALTER TABLE deliveries DROP CONSTRAINT IF EXISTS deliveries_state_check;
    ALTER TABLE deliveries ADD CONSTRAINT deliveries_state_check
      CHECK (state IN ('pending', 'delivered', 'dead', 'skipped', 'silenced', 'muted', 'suppressed', 'grouped'));
    ALTER TABLE attempts DROP CONSTRAINT IF EXISTS attempts_outcome_check;
    ALTER TABLE attempts ADD CONSTRAINT attempts_outcome_check
      CHECK (outcome IN ('delivered', 'retry', 'dead', 'skipped'));
    CREATE TABLE IF NOT EXISTS repairs (
      id          bigserial PRIMARY KEY,
      at          bigint NOT NULL,
      actor       text   NOT NULL,
      action      text   NOT NULL CHECK (action IN ('skip', 'references-set', 'references-clear')),
      target      text   NOT NULL,
      key         text,
      delivery_id bigint,
      reason      text   NOT NULL,
      detail      text
    );
    CREATE INDEX IF NOT EXISTS repairs_by_key ON repairs (target, key, id);
  `,
};
