import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Digest counts written once a second instead of in every ingest transaction (issue 12's ingest cost): with
 * 50 digests open, a group commit updated a digest row per host it saw, about 2 µs per grouped event. The
 * daemon now counts joins in memory and writes them with the delivery id they are complete up to; after a
 * crash it counts the grouped deliveries after `as_of` again (create-sqlite-digest-counts.ts). The counts present
 * when this runs are complete: the code before it wrote them in every ingest transaction.
 */
export const digestCountCheckpointMigration: SqliteMigration = {
  version: 9,
  name: 'digest-count-checkpoint',
  sql: `
    CREATE TABLE digest_count_checkpoint (
      only   INTEGER NOT NULL PRIMARY KEY CHECK (only = 1),
      as_of  INTEGER NOT NULL
    ) STRICT;
    INSERT INTO digest_count_checkpoint (only, as_of) SELECT 1, coalesce(max(id), 0) FROM deliveries;
  `,
};
