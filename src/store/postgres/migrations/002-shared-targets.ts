import type { PostgresMigration } from '../postgres-migration.js';

/**
 * What instances share per target (src/store/shared-targets.ts): the pacing row, locked by each claim so that
 * every instance decides against the same tokens, circuit and pause (created on a target's first claim;
 * `tokens` is fractional because the bucket refills continuously), and the targets' declarations.
 */
export const sharedTargetsMigration: PostgresMigration = {
  version: 2,
  name: 'shared-targets',
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

    -- Which targets the instances' rules define, and when an instance last said so (once a minute).
    CREATE TABLE target_declarations (
      target   text COLLATE "C" NOT NULL PRIMARY KEY,
      seen_at  bigint NOT NULL
    );
  `,
};
