import type Database from 'better-sqlite3';
import { systemClock, type Clock } from '../../clock.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { Store } from '../store.js';
import { toStoredDelivery } from '../key-order-sql.js';
import { checkSqliteSchemaVersion } from './check-sqlite-schema-version.js';
import { createSqliteConsole } from './create-sqlite-console.js';
import { createSqliteIncidents, type SqliteIncidents } from './create-sqlite-incidents.js';
import { createSqliteRepairs, type SqliteRepairs } from './create-sqlite-repairs.js';
import { countInSlices } from './count-in-slices.js';
import { createSqliteDeliveries, type SqliteDeliveries } from './create-sqlite-deliveries.js';
import { createSqliteEvents, type SqliteEvents } from './create-sqlite-events.js';
import { createSqliteIngest, type SqliteIngest } from './create-sqlite-ingest.js';
import { createSqliteRetention, type SqliteRetention } from './create-sqlite-retention.js';
import { createSqliteSilences, type SqliteSilences } from './create-sqlite-silences.js';
import { createSqliteSourceStatus } from './create-sqlite-source-status.js';
import { createSqliteDigests, type SqliteDigests } from './create-sqlite-digests.js';
import { AUTO_CONVERT_MAX_BYTES, enableIncrementalVacuum } from './enable-incremental-vacuum.js';
import { sqliteMigrations } from './migrations/sqlite-migrations.js';
import { openSqliteDatabase } from './open-sqlite-database.js';
import { prepareSqliteStatements, type SqliteStatements } from './prepare-sqlite-statements.js';
import { runSqliteMigrations } from './run-sqlite-migrations.js';
import { toJournalError } from './to-journal-error.js';

export interface SqliteStoreOptions {
  /** The journal file; its folder is created if missing. */
  readonly path: string;
  /** How long a write waits for another connection's lock before failing as `journal_unavailable`. */
  readonly busyTimeoutMs?: number;
  readonly clock?: Clock;
}

/** The SQLite journal is a plain Store; the name stays for the callers that open one directly. */
export type SqliteStore = Store;

interface Ready {
  readonly statements: SqliteStatements;
  readonly ingest: SqliteIngest;
  readonly deliveries: SqliteDeliveries;
  readonly events: SqliteEvents;
  readonly retention: SqliteRetention;
  readonly silences: SqliteSilences;
  readonly sources: ReturnType<typeof createSqliteSourceStatus>;
  readonly digests: SqliteDigests;
  readonly console: ReturnType<typeof createSqliteConsole>;
  readonly incidents: SqliteIncidents;
  readonly repairs: SqliteRepairs;
}

/**
 * The embedded journal. The file is opened on first use. `migrate()` brings the schema up to date; the other
 * methods work on a journal that is already current (a second store on a daemon's journal, say) and reject
 * with `journal_not_migrated` on one that is behind, so the store never writes into a schema it has not checked.
 * better-sqlite3 is synchronous: each method does its work before returning.
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 1000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new RangeError(`busyTimeoutMs must be a non-negative integer, got ${busyTimeoutMs}`);
  }
  const clock = options.clock ?? systemClock;
  const latest = sqliteMigrations.length;
  let db: Database.Database | undefined;
  let ready: Ready | undefined;
  let closed = false;

  const open = (): Database.Database => {
    if (closed) throw new SwitchyardError('journal_closed', 'the event journal has been closed');
    return (db ??= openSqliteDatabase(options.path, busyTimeoutMs));
  };
  const prepare = (opened: Database.Database): Ready => {
    if (ready === undefined) {
      const statements = prepareSqliteStatements(opened);
      const digests = createSqliteDigests(opened, statements);
      const incidents = createSqliteIncidents(opened);
      ready = {
        statements,
        digests,
        incidents,
        ingest: createSqliteIngest(opened, statements, digests, incidents),
        deliveries: createSqliteDeliveries(opened, statements),
        events: createSqliteEvents(opened),
        retention: createSqliteRetention(opened, options.path),
        silences: createSqliteSilences(opened),
        sources: createSqliteSourceStatus(opened),
        console: createSqliteConsole(opened),
        repairs: createSqliteRepairs(opened),
      };
    }
    return ready;
  };
  async function use<T>(work: (ready: Ready) => T): Promise<T> {
    const opened = open();
    return guarded(opened, () => {
      if (ready === undefined && checkSqliteSchemaVersion(opened, latest) < latest) {
        throw new SwitchyardError('journal_not_migrated', 'the event journal needs migrate() before use');
      }
      return work(prepare(opened));
    });
  }

  return {
    async migrate() {
      const opened = open();
      await guarded(opened, () => {
        const applied = runSqliteMigrations(opened, sqliteMigrations, clock.now());
        // Outside the migrations' transactions (VACUUM cannot run in one); a no-op once done.
        const vacuum = enableIncrementalVacuum(opened, AUTO_CONVERT_MAX_BYTES);
        // A migration that rewrites a table (10 rewrites every event), like the VACUUM, leaves a WAL file about
        // that size, and SQLite reuses the file but never shrinks it: give the space back once, before use.
        // https://www.sqlite.org/pragma.html#pragma_wal_checkpoint
        if (applied > 0 || vacuum === 'converted') opened.pragma('wal_checkpoint(TRUNCATE)');
        prepare(opened);
      });
    },
    ingest: (items) => (items.length === 0 ? Promise.resolve([]) : use((r) => r.ingest.ingest(items))),
    getEvent: (id) =>
      use(({ statements }) => {
        const row = statements.getEvent.get(id);
        return row && { ...row, matchedRoutes: JSON.parse(row.matchedRoutes) as string[] };
      }),
    findEvents: (filter) => use((r) => r.events.findEvents(filter)),
    eventIdAt: (filter, offset) => use((r) => r.console.eventIdAt(filter, offset)),
    eventsPerMinute: (since, bucketMs) => use((r) => r.console.eventsPerMinute(since, bucketMs)),
    countDeliveriesByState: (since) => use((r) => r.console.countDeliveriesByState(since)),
    targetHealth: () => use((r) => r.console.targetHealth()),
    findChangedDeliveries: (after, before, limit) => use((r) => r.console.findChangedDeliveries(after, before, limit)),
    latestChange: (before) => use((r) => r.console.latestChange(before)),
    findIncidents: (filter) => use((r) => r.incidents.find(filter)),
    incidentHistory: (source, key) => use((r) => r.incidents.history(source, key)),
    skipDelivery: (id, audit) => use((r) => r.repairs.skip(id, audit)),
    setReferences: (target, key, values, audit) => use((r) => r.repairs.setReferences(target, key, values, audit)),
    findRepairs: (filter) => use((r) => r.repairs.find(filter)),
    listDeliveries: (eventId) => use(({ statements }) => statements.listDeliveries.all(eventId).map(toStoredDelivery)),
    getDelivery: (id) => use((r) => r.deliveries.getDelivery(id)),
    findDeliveries: (filter) => use((r) => r.deliveries.findDeliveries(filter)),
    listAttempts: (deliveryId) => use((r) => r.deliveries.listAttempts(deliveryId)),
    claimDue: (request) => (request.limit < 1 ? Promise.resolve([]) : use((r) => r.deliveries.claimDue(request))),
    recordAttempts: (records) =>
      records.length === 0 ? Promise.resolve(0) : use((r) => r.deliveries.recordAttempts(records)),
    releaseClaims: (claims) =>
      claims.length === 0 ? Promise.resolve() : use((r) => r.deliveries.releaseClaims(claims)),
    releaseAllClaims: (now) => use((r) => r.deliveries.releaseAllClaims(now)),
    nextDueAt: (target) => use((r) => r.deliveries.nextDueAt(target)),
    replay: (selection, now) => use((r) => r.deliveries.replay(selection, now)),
    countByTarget: () =>
      countInSlices(
        () => use((r) => r.deliveries.lastDeliveryId()),
        (after, last, rows) => use((r) => r.deliveries.countSlice(after, last, rows)),
      ),
    pendingTargets: () => use((r) => r.deliveries.pendingTargets()),
    findReferences: (filter) => use((r) => r.deliveries.findReferences(filter)),
    deadLetterTarget: (target, reason, now) => use((r) => r.deliveries.deadLetterTarget(target, reason, now)),
    ping: (pingOptions) =>
      use(({ statements }) => {
        statements.ping.get();
        if (pingOptions?.write !== true) return;
        // Commits a real write that changes nothing visible: it needs the write lock (waiting up to the busy
        // timeout), a writable file and room for a page in the WAL, as an ingest commit does. A transaction that
        // is only opened and rolled back would pass on a full disk.
        open().exec('UPDATE schema_migrations SET applied_at = applied_at WHERE version = 1');
      }),
    counts: () => use(({ statements }) => statements.counts.get() ?? { events: 0, deliveries: 0 }),
    changesByOthers: () => use(({ statements }) => statements.dataVersion.get() ?? 0),
    pruneBatch: (request) => use((r) => r.retention.pruneBatch(request)),
    countPrunable: (cutoffs) => use((r) => r.retention.countPrunable(cutoffs)),
    journalSize: () => use((r) => r.retention.journalSize()),
    createSilence: (silence) => use((r) => r.silences.createSilence(silence)),
    getSilence: (id) => use((r) => r.silences.getSilence(id)),
    findSilences: (filter) => use((r) => r.silences.findSilences(filter)),
    updateSilence: (id, change, now) => use((r) => r.silences.updateSilence(id, change, now)),
    releaseSilence: (id, deliveryIds, now) => use((r) => r.silences.releaseSilence(id, deliveryIds, now)),
    recordSourceSightings: (sightings, now) =>
      sightings.length === 0 ? Promise.resolve() : use((r) => r.sources.recordSourceSightings(sightings, now)),
    markSourceSilent: (source, cutoff, now) => use((r) => r.sources.markSourceSilent(source, cutoff, now)),
    markSourceRecovered: (source) => use((r) => r.sources.markSourceRecovered(source)),
    findDueDigests: (now, limit) => use((r) => r.digests.findDueDigests(now, limit)),
    sendDigest: (id, now, build) => use((r) => r.digests.sendDigest(id, now, build)),
    async close() {
      closed = true;
      ready = undefined;
      db?.close();
    },
  };
}

/** Runs `work`, mapping "journal unavailable" errors; never leaves a transaction open behind a failure. */
async function guarded<T>(db: Database.Database, work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    // better-sqlite3 rolls back a failed transaction itself; this covers a failed ROLLBACK, so that the next
    // call once the disk has space or the lock is released starts clean instead of "cannot start a transaction".
    if (db.open && db.inTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // Nothing more to do: SQLite has already ended the transaction or will on the next statement.
      }
    }
    throw toJournalError(error);
  }
}
