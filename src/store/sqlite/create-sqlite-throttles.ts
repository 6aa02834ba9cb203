import type Database from 'better-sqlite3';
import { createThrottleLedger, type ThrottleDecision, type ThrottleSeed } from '../../noise/throttle-ledger.js';
import type { ThrottleCheck } from '../store.js';

/** How often (in event time) the ledger's changes are written to `throttle_keys`: each key changed is one write. */
const CHECKPOINT_MS = 5_000;

interface TailRow {
  readonly id: number;
  readonly key: string;
  readonly at: number;
  readonly suppressed: number;
}

/**
 * Throttles on the SQLite journal: decided in memory (throttle-ledger.ts) and written back to `throttle_keys`
 * every 5 seconds of event time, in an ingest transaction, with the delivery id they are complete up to
 * (`throttle_checkpoint`). After a restart or a rolled-back transaction a key is read from its row plus the
 * throttled deliveries created after the checkpoint, so nothing decided and committed is forgotten, while a
 * throttled delivery costs no more journal work than any other: an index of deliveries by key, or a row written
 * per decision, cost a random B-tree page per throttled delivery (docs/decisions/noise-control-costs.md).
 */
export function createSqliteThrottles(db: Database.Database) {
  const getKey = db.prepare<[key: string], { sentAt: string; suppressed: number; asOf: number }>(
    'SELECT sent_at AS sentAt, suppressed, as_of AS asOf FROM throttle_keys WHERE key = ?',
  );
  const putKey = db.prepare<[{ key: string; sentAt: string; suppressed: number; asOf: number; at: number }]>(
    `INSERT INTO throttle_keys (key, sent_at, suppressed, as_of, updated_at)
     VALUES (@key, @sentAt, @suppressed, @asOf, @at)
     ON CONFLICT (key) DO UPDATE SET sent_at = excluded.sent_at, suppressed = excluded.suppressed,
       as_of = excluded.as_of, updated_at = excluded.updated_at`,
  );
  const checkpoint = db.prepare<[], number>('SELECT as_of FROM throttle_checkpoint').pluck();
  const setCheckpoint = db.prepare<[asOf: number]>('UPDATE throttle_checkpoint SET as_of = ?');
  const lastDelivery = db.prepare<[], number>('SELECT coalesce(max(id), 0) FROM deliveries').pluck();
  // By rowid from the checkpoint on: a few seconds of deliveries, whatever the journal holds.
  const tailRows = db.prepare<[after: number], TailRow>(
    `SELECT id, throttle_key AS key, created_at AS at, state = 'suppressed' AS suppressed FROM deliveries
     WHERE id > ? AND throttle_key IS NOT NULL ORDER BY id`,
  );

  // Throttled deliveries after the checkpoint, by key, not yet applied to a key in memory.
  let tail: Map<string, TailRow[]> | undefined;
  const readTail = (): Map<string, TailRow[]> => {
    const rows = new Map<string, TailRow[]>();
    for (const row of tailRows.iterate(checkpoint.get() ?? 0)) {
      const list = rows.get(row.key);
      if (list === undefined) rows.set(row.key, [row]);
      else list.push(row);
    }
    return rows;
  };
  const seed = (key: string): ThrottleSeed => {
    tail ??= readTail();
    const row = getKey.get(key);
    const sentAt = row === undefined ? [] : (JSON.parse(row.sentAt) as number[]);
    let suppressed = row?.suppressed ?? 0;
    for (const delivery of tail.get(key) ?? []) {
      if (delivery.id <= (row?.asOf ?? 0)) continue;
      if (delivery.suppressed === 1) suppressed += 1;
      else {
        sentAt.push(delivery.at);
        suppressed = 0;
      }
    }
    tail.delete(key);
    return { sentAt, suppressed };
  };
  const ledger = createThrottleLedger(seed);
  let checkpointedAt = Number.NEGATIVE_INFINITY;

  return {
    decide: (check: ThrottleCheck, at: number): ThrottleDecision => ledger.decide(check, at),
    /** At the end of every ingest transaction: writes the changed keys and moves the checkpoint, every 5 s. */
    afterGroup(at: number): void {
      if (at - checkpointedAt < CHECKPOINT_MS) return;
      // Keys with deliveries after the old checkpoint and not met since are carried over to the new one.
      tail ??= readTail();
      for (const key of [...tail.keys()]) ledger.touch(key);
      tail = new Map();
      const asOf = lastDelivery.get() ?? 0;
      for (const [key, { sentAt, suppressed }] of ledger.takeChanges()) {
        putKey.run({ key, sentAt: JSON.stringify(sentAt), suppressed, asOf, at });
      }
      // Moved on even when nothing changed, so the deliveries read after a restart stay a few seconds' worth.
      setCheckpoint.run(asOf);
      checkpointedAt = at;
    },
    /** After a rolled-back ingest transaction: what it decided is forgotten and read again. */
    rolledBack(): void {
      ledger.clear();
      tail = undefined;
    },
  };
}
