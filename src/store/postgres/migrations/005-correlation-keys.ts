import type { PostgresMigration } from '../postgres-migration.js';

/** As SQLite's migration 5 (src/store/sqlite/migrations/005-correlation-keys.ts), which says why. */
export const correlationKeysMigration: PostgresMigration = {
  version: 5,
  name: 'correlation-keys',
  sql: `
    ALTER TABLE deliveries ADD COLUMN correlation_key text COLLATE "C";
    CREATE INDEX deliveries_key_open ON deliveries (target, correlation_key, id)
      WHERE correlation_key IS NOT NULL AND state IN ('pending', 'dead');
    CREATE INDEX deliveries_key_claimed ON deliveries (target, correlation_key)
      WHERE correlation_key IS NOT NULL AND claim_token IS NOT NULL;
    CREATE TABLE key_references (
      target     text COLLATE "C" NOT NULL,
      key        text COLLATE "C" NOT NULL,
      ref_values jsonb  NOT NULL,
      updated_at bigint NOT NULL,
      PRIMARY KEY (target, key)
    );
    CREATE INDEX key_references_by_update ON key_references (updated_at);
  `,
};
