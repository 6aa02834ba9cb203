import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Incident lifecycles (issue 14).
 * - `correlation_key`: the rendered key of a delivery whose target has one; deliveries to one target with the
 *   same key are sent one at a time, in id order (claim-order-sql.ts). Null for every other delivery.
 * - `deliveries_key_open`: per target and key, the deliveries that still hold the key's line (pending or dead),
 *   so "is an earlier one unfinished?" is one index probe; `deliveries_key_claimed` does the same for "is one in
 *   flight?". Deliveries without a key never enter either index, so they cost nothing more.
 * - `key_references`: what a target captured for a key from its delivered answers (a ticket key, a Slack `ts`),
 *   JSON; retention removes keys not written since the events cutoff.
 */
export const correlationKeysMigration: SqliteMigration = {
  version: 5,
  name: 'correlation-keys',
  sql: `
    ALTER TABLE deliveries ADD COLUMN correlation_key TEXT;
    CREATE INDEX deliveries_key_open ON deliveries (target, correlation_key, id)
      WHERE correlation_key IS NOT NULL AND state IN ('pending', 'dead');
    CREATE INDEX deliveries_key_claimed ON deliveries (target, correlation_key)
      WHERE correlation_key IS NOT NULL AND claim_token IS NOT NULL;
    CREATE TABLE key_references (
      target     TEXT    NOT NULL,
      key        TEXT    NOT NULL,
      ref_values TEXT    NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (target, key)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX key_references_by_update ON key_references (updated_at);
  `,
};
