import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * `started_key`: 1 on a delivery whose delivered attempt started its correlation key (sent as the key's
 * create, with nothing remembered for the key yet). A replay of such a delivery (`--include-delivered`) is
 * sent as a create again, never as an update of the ticket it opened (docs/delivery.md). 0 for deliveries
 * delivered before this migration: which of them were creates is not recorded anywhere.
 */
export const startedKeyMigration: SqliteMigration = {
  version: 13,
  name: 'started-key',
  sql: `ALTER TABLE deliveries ADD COLUMN started_key INTEGER NOT NULL DEFAULT 0;`,
};
