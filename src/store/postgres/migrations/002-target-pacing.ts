import type { PostgresMigration } from '../postgres-migration.js';

/**
 * Shared per-target pacing (src/store/shared-pacing.ts): one row per target, locked by each claim so that every
 * instance decides against the same tokens, circuit and pause. Created on a target's first claim.
 * `tokens` is fractional because the bucket refills continuously.
 */
export const targetPacingMigration: PostgresMigration = {
  version: 2,
  name: 'target-pacing',
  sql: `
    CREATE TABLE target_pacing (
      target       text COLLATE "C" NOT NULL PRIMARY KEY,
      tokens       double precision NOT NULL,
      refilled_at  bigint  NOT NULL,
      failures     integer NOT NULL DEFAULT 0,
      open_until   bigint,
      probe_until  bigint,
      probe_token  text,
      paused_until bigint  NOT NULL DEFAULT 0
    );
  `,
};
