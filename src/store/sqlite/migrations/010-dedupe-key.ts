import type { SqliteMigration } from '../sqlite-migration.js';
import { dedupeKeySql } from '../dedupe-key-sql.js';

/**
 * The dedupe lookup through a 6-byte integer prefix of the body hash instead of (source, hash, received_at)
 * (issue 11): about a third of the index's size, so fewer pages dirtied per group commit (../dedupe-key.ts).
 * The existing rows get their key here, in the migration's transaction: one pass over the table, 7.4 s on a
 * journal of a million events here. received_at stays in the index so that a lookup reads only the rows inside
 * the window, however often one body was sent before it. The column stays nullable (ALTER TABLE cannot add
 * NOT NULL without a default, and a default key would be a wrong one); every INSERT names it.
 */
export const dedupeKeyMigration: SqliteMigration = {
  version: 10,
  name: 'dedupe-key',
  sql: `
    ALTER TABLE events ADD COLUMN dedupe_key INTEGER;
    UPDATE events SET dedupe_key = ${dedupeKeySql('body_sha256')};
    DROP INDEX events_dedupe;
    CREATE INDEX events_dedupe_key ON events (dedupe_key, received_at);
    -- The old index also served listings filtered by source (the console, GET /events?source=): without it
    -- they read the whole table for a rare source. Its inserts land at each source's end (ids are ULIDs).
    CREATE INDEX events_by_source ON events (source, id);
  `,
};
