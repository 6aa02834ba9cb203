import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * A digest's deliveries found by where they start, not by an index on the digest (issue 12's ingest cost).
 * With 50 digests open, an index on `held_by` takes each grouped delivery to one of 50 places in the B-tree:
 * every group commit dirtied a leaf page per digest, the largest share of noise control's cost at ingest
 * (docs/decisions/noise-control-costs.md). Grouped deliveries now enter `deliveries_grouped`, keyed by id, where every insert lands
 * at the end; a digest remembers the last delivery id before it opened (`first_delivery`, exclusive), and its
 * members are read from there on. `deliveries_held_by` keeps the other holds (silences, throttles,
 * intervals), which have few values each and are appended per value.
 */
export const digestMembersMigration: SqliteMigration = {
  version: 7,
  name: 'digest-members',
  sql: `
    ALTER TABLE digests ADD COLUMN first_delivery INTEGER NOT NULL DEFAULT 0;
    UPDATE digests SET first_delivery =
      coalesce((SELECT min(deliveries.id) - 1 FROM deliveries WHERE deliveries.held_by = digests.id), 0);
    DROP INDEX deliveries_held_by;
    CREATE INDEX deliveries_held_by ON deliveries (held_by) WHERE held_by IS NOT NULL AND state <> 'grouped';
    CREATE INDEX deliveries_grouped ON deliveries (id, held_by) WHERE state = 'grouped';
  `,
};
