import { randomUUID } from 'node:crypto';
import { findPostgresReferences } from './postgres-references.js';
import { systemClock } from '../../clock.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { Store, StoredDelivery, StoredEvent } from '../store.js';
import { checkPostgresSchemaVersion } from './check-postgres-schema-version.js';
import { toStoredDelivery } from '../key-order-sql.js';
import { claimPostgresDue } from './claim-postgres-due.js';
import { claimPostgresPaced } from './claim-postgres-paced.js';
import { countPostgresPrunable } from './count-postgres-prunable.js';
import { createPostgresDeliveries } from './create-postgres-deliveries.js';
import { createPostgresIngest } from './create-postgres-ingest.js';
import { deadLetterUnknownTarget } from './dead-letter-unknown-target.js';
import { declarePostgresTargets } from './declare-postgres-targets.js';
import { createPostgresPool } from './create-postgres-pool.js';
import { createPostgresConsole } from './postgres-console.js';
import { createPostgresIncidents } from './postgres-incidents.js';
import { createPostgresRepairs } from './postgres-repairs.js';
import { findPostgresEvents } from './find-postgres-events.js';
import { postgresMigrations } from './migrations/postgres-migrations.js';
import { prunePostgresBatch } from './prune-postgres-batch.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import type { PostgresStoreOptions } from './postgres-store-options.js';
import { recordPostgresAttempts } from './record-postgres-attempts.js';
import { replayPostgresDeliveries } from './replay-postgres-deliveries.js';
import { createPostgresSilences } from './create-postgres-silences.js';
import { createPostgresSourceStatus } from './create-postgres-source-status.js';
import { createPostgresDigests } from './postgres-digests.js';
import { reportPostgresVerdicts } from './report-postgres-verdicts.js';
import { runPostgresMigrations } from './run-postgres-migrations.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';
import { toPostgresJournalError } from './to-postgres-journal-error.js';

/**
 * The shared journal: several Switchyard instances on one PostgreSQL database, each with its own pool.
 * `migrate()` brings the schema up to date (safely from several instances at once); the other methods work on
 * a journal that is already current and reject with `journal_not_migrated` on one that is behind. The schema
 * version is checked on first use and then trusted, as in SQLite. Connection failures, a full disk, a
 * read-only server or a timed-out statement reject with `journal_unavailable` (503); each call takes a
 * connection from the pool afresh, so the store recovers by itself once the database is back.
 */
export function createPostgresStore(options: PostgresStoreOptions): Store {
  const clock = options.clock ?? systemClock;
  const latest = postgresMigrations.length;
  const pool = createPostgresPool(options);
  // This process's rows of event_counts (count-postgres-events.ts): a new id per store, never shared.
  const writer = randomUUID();
  const ingest = createPostgresIngest(pool, options.schema ?? '', writer);
  const deliveries = createPostgresDeliveries(pool);
  const silences = createPostgresSilences(pool);
  const sources = createPostgresSourceStatus(pool);
  const digests = createPostgresDigests(pool, options.schema ?? '', writer);
  const consoleReads = createPostgresConsole(pool);
  const incidents = createPostgresIncidents(pool);
  const repairs = createPostgresRepairs(pool);
  let current = false;
  let closing: Promise<void> | undefined;

  const closedError = () => new SwitchyardError('journal_closed', 'the event journal has been closed');
  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    if (closing !== undefined) throw closedError();
    try {
      return await work();
    } catch (error) {
      // A call still running when close() ended the pool fails with pg's "pool has ended" errors.
      if (closing !== undefined && !(error instanceof SwitchyardError)) throw closedError();
      throw toPostgresJournalError(error);
    }
  }
  const use = <T>(work: () => Promise<T>): Promise<T> =>
    guarded(async () => {
      if (!current) {
        if ((await checkPostgresSchemaVersion(pool, latest)) < latest) {
          throw new SwitchyardError('journal_not_migrated', 'the event journal needs migrate() before use');
        }
        current = true;
      }
      return work();
    });

  return {
    sharedTargets: {
      claim: (request) => use(() => claimPostgresPaced(pool, request)),
      report: (verdicts) =>
        verdicts.length === 0 ? Promise.resolve() : use(() => reportPostgresVerdicts(pool, verdicts)),
      declareTargets: (targets, now) => use(() => declarePostgresTargets(pool, targets, now)),
      deadLetterUnknownTarget: (target, reason, now, quietSince) =>
        use(() => deadLetterUnknownTarget(pool, { target, reason, now, quietSince })),
    },
    migrate: () =>
      guarded(async () => {
        await runPostgresMigrations(pool, postgresMigrations, { schema: options.schema, nowMs: clock.now() });
        current = true;
      }),
    ingest: (items) => (items.length === 0 ? Promise.resolve([]) : use(() => ingest(items))),
    getEvent: (id) =>
      use(async () => {
        const result = await pool.query<StoredEvent>(`SELECT ${POSTGRES_COLUMNS.event} FROM events WHERE id = $1`, [
          id,
        ]);
        return result.rows[0];
      }),
    findEvents: (filter) => use(() => findPostgresEvents(pool, filter)),
    eventIdAt: (filter, offset) => use(() => consoleReads.eventIdAt(filter, offset)),
    eventsPerMinute: (since, bucketMs) => use(() => consoleReads.eventsPerMinute(since, bucketMs)),
    countDeliveriesByState: (since) => use(() => consoleReads.countDeliveriesByState(since)),
    targetHealth: () => use(() => consoleReads.targetHealth()),
    findChangedDeliveries: (after, before, limit) =>
      use(() => consoleReads.findChangedDeliveries(after, before, limit)),
    latestChange: (before) => use(() => consoleReads.latestChange(before)),
    findIncidents: (filter) => use(() => incidents.find(filter)),
    incidentHistory: (source, key) => use(() => incidents.history(source, key)),
    skipDelivery: (id, audit) => use(() => repairs.skip(id, audit)),
    setReferences: (target, key, values, audit) => use(() => repairs.setReferences(target, key, values, audit)),
    findRepairs: (filter) => use(() => repairs.find(filter)),
    listDeliveries: (eventId) =>
      use(async () => {
        const result = await pool.query<StoredDelivery>(
          `SELECT ${POSTGRES_COLUMNS.listedDelivery} FROM deliveries WHERE event_id = $1 ORDER BY target`,
          [eventId],
        );
        return result.rows.map(toStoredDelivery);
      }),
    getDelivery: (id) => use(() => deliveries.getDelivery(id)),
    findDeliveries: (filter) => use(() => deliveries.findDeliveries(filter)),
    listAttempts: (deliveryId) => use(() => deliveries.listAttempts(deliveryId)),
    claimDue: (request) => (request.limit < 1 ? Promise.resolve([]) : use(() => claimPostgresDue(pool, request))),
    recordAttempts: (records) =>
      records.length === 0 ? Promise.resolve(0) : use(() => recordPostgresAttempts(pool, records)),
    releaseClaims: (claims) => (claims.length === 0 ? Promise.resolve() : use(() => deliveries.releaseClaims(claims))),
    releaseAllClaims: (now) => use(() => deliveries.releaseAllClaims(now)),
    nextDueAt: (target) => use(() => deliveries.nextDueAt(target)),
    replay: (selection, now) => use(() => replayPostgresDeliveries(pool, selection, now)),
    deadLetterTarget: (target, reason, now) => use(() => deliveries.deadLetterTarget(target, reason, now)),
    countByTarget: () => use(() => deliveries.countByTarget()),
    pendingTargets: () => use(() => deliveries.pendingTargets()),
    findReferences: (filter) => use(() => findPostgresReferences(pool, filter)),
    ping: (pingOptions) =>
      use(async () => {
        if (pingOptions?.write !== true) {
          await pool.query('SELECT 1 FROM schema_migrations LIMIT 1');
          return;
        }
        // A write statement that changes nothing: refused on a read-only server or transaction.
        await withPostgresTransaction(pool, (client) =>
          client.query('UPDATE schema_migrations SET version = version WHERE false'),
        );
      }),
    counts: () =>
      use(async () => {
        const result = await pool.query<{ events: number; deliveries: number }>(
          'SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM deliveries) AS deliveries',
        );
        return result.rows[0] ?? { events: 0, deliveries: 0 };
      }),
    pruneBatch: (request) => use(() => prunePostgresBatch(pool, options.schema ?? '', request)),
    countPrunable: (cutoffs) => use(() => countPostgresPrunable(pool, cutoffs)),
    journalSize: () =>
      use(async () => {
        const result = await pool.query<{ bytes: number }>(
          `SELECT (pg_total_relation_size('events') + pg_total_relation_size('deliveries')
             + pg_total_relation_size('attempts'))::bigint AS bytes`,
        );
        return result.rows[0]?.bytes ?? 0;
      }),
    createSilence: (silence) => use(() => silences.createSilence(silence)),
    getSilence: (id) => use(() => silences.getSilence(id)),
    findSilences: (filter) => use(() => silences.findSilences(filter)),
    updateSilence: (id, change, now) => use(() => silences.updateSilence(id, change, now)),
    releaseSilence: (id, deliveryIds, now) => use(() => silences.releaseSilence(id, deliveryIds, now)),
    recordSourceSightings: (sightings, now) =>
      sightings.length === 0 ? Promise.resolve() : use(() => sources.recordSourceSightings(sightings, now)),
    markSourceSilent: (source, cutoff, now) => use(() => sources.markSourceSilent(source, cutoff, now)),
    markSourceRecovered: (source) => use(() => sources.markSourceRecovered(source)),
    findDueDigests: (now, limit) => use(() => digests.findDueDigests(now, limit)),
    sendDigest: (id, now, build) => use(() => digests.sendDigest(id, now, build)),
    close() {
      // pool.end() waits for connections still checked out by calls in flight.
      closing ??= pool.end();
      return closing;
    },
  };
}
