import type { PostgresMigration } from '../postgres-migration.js';
import { initialMigration } from './001-initial.js';
import { sharedTargetsMigration } from './002-shared-targets.js';
import { replayGenerationMigration } from './003-replay-generation.js';
import { heldDeliveriesMigration } from './004-held-deliveries.js';
import { correlationKeysMigration } from './005-correlation-keys.js';
import { consoleMigration } from './006-console.js';
import { eventCountsMigration } from './007-event-counts.js';
import { dueOrderMigration } from './008-due-order.js';
import { pacingLastFailureMigration } from './009-pacing-last-failure.js';
import { repairsMigration } from './012-repairs.js';
import { incidentsMigration } from './010-incidents.js';
import { startedKeyMigration } from './011-started-key.js';

/** Every PostgreSQL migration this version of Switchyard knows, in order. Append new ones here. */
export const postgresMigrations: readonly PostgresMigration[] = [
  initialMigration,
  sharedTargetsMigration,
  replayGenerationMigration,
  heldDeliveriesMigration,
  correlationKeysMigration,
  consoleMigration,
  eventCountsMigration,
  dueOrderMigration,
  pacingLastFailureMigration,
  incidentsMigration,
  startedKeyMigration,
  repairsMigration,
];
