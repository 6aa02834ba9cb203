import type { SqliteMigration } from '../sqlite-migration.js';
import { initialMigration } from './001-initial.js';
import { deliveryAttemptsMigration } from './002-delivery-attempts.js';
import { replayGenerationMigration } from './003-replay-generation.js';
import { heldDeliveriesMigration } from './004-held-deliveries.js';
import { correlationKeysMigration } from './005-correlation-keys.js';
import { consoleMigration } from './006-console.js';
import { digestMembersMigration } from './007-digest-members.js';
import { eventCountsMigration } from './008-event-counts.js';
import { digestCountCheckpointMigration } from './009-digest-count-checkpoint.js';
import { dedupeKeyMigration } from './010-dedupe-key.js';
import { throttleLetThroughMigration } from './011-throttle-let-through.js';
import { repairsMigration } from './014-repairs.js';
import { incidentsMigration } from './012-incidents.js';
import { startedKeyMigration } from './013-started-key.js';

/** Every migration this version of Switchyard knows, in order. Append new ones here. */
export const sqliteMigrations: readonly SqliteMigration[] = [
  initialMigration,
  deliveryAttemptsMigration,
  replayGenerationMigration,
  heldDeliveriesMigration,
  correlationKeysMigration,
  consoleMigration,
  digestMembersMigration,
  eventCountsMigration,
  digestCountCheckpointMigration,
  dedupeKeyMigration,
  throttleLetThroughMigration,
  incidentsMigration,
  startedKeyMigration,
  repairsMigration,
];
