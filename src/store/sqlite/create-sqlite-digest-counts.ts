import type Database from 'better-sqlite3';

/** How often (in event time) the counts are written to `digests`: each digest joined since is one write. */
const CHECKPOINT_MS = 1_000;

/**
 * How many grouped deliveries each open digest holds, on the SQLite journal (migration 9). A digest row's
 * `count` is complete up to delivery `digest_count_checkpoint.as_of`; the joins after it are counted here, in
 * memory, and written once a second of event time in an ingest transaction, with the delivery id they are
 * complete up to. Writing them in every ingest transaction cost a digest row update per host a group commit
 * saw, about 2 µs per grouped event (docs/decisions/noise-control-costs.md). After a restart or a rolled-back
 * transaction the counts after the checkpoint are read again from the deliveries that joined (at most about a
 * second of them), so nothing committed is miscounted. It assumes one store instance ingests into the file, as
 * the daemon's lock on the journal ensures (lock-sqlite-journal.ts): a second one would write the first's
 * joins again.
 */
export function createSqliteDigestCounts(db: Database.Database) {
  const checkpoint = db.prepare<[], number>('SELECT as_of FROM digest_count_checkpoint').pluck();
  const setCheckpoint = db.prepare<[]>(
    'UPDATE digest_count_checkpoint SET as_of = (SELECT coalesce(max(id), 0) FROM deliveries)',
  );
  // Every delivery that joined a digest, whatever its state now (replays requeued grouped ones before they
  // were refused, and a journal may still hold such): the same joins the in-memory count saw. By rowid from the
  // checkpoint on: about a second of deliveries.
  const recount = db.prepare<[after: number], { heldBy: string; n: number }>(
    `SELECT deliveries.held_by AS heldBy, count(*) AS n FROM deliveries JOIN digests ON digests.id = deliveries.held_by
     WHERE deliveries.id > ? GROUP BY deliveries.held_by`,
  );
  // Open only: a digest sent meanwhile has its final count (`sent`), and its late recount must not add to it.
  const addCount = db.prepare<[added: number, id: string]>(
    `UPDATE digests SET count = count + ? WHERE id = ? AND state = 'open'`,
  );

  // Joins after the checkpoint, by digest; undefined when they must be read from the journal again.
  let pending: Map<string, number> | undefined;
  // Joins in the ingest transaction under way, merged into `pending` at its end.
  const added = new Map<string, number>();
  let checkpointedAt = Number.NEGATIVE_INFINITY;
  const read = (): Map<string, number> => new Map(recount.all(checkpoint.get() ?? 0).map((row) => [row.heldBy, row.n]));

  return {
    /** In the ingest transaction: a grouped delivery joined digest `id`. */
    joined(id: string): void {
      added.set(id, (added.get(id) ?? 0) + 1);
    },
    /** At the end of every ingest transaction (event time `at`): the joins counted, and written every second. */
    endOfGroup(at: number): void {
      // Read now, the journal already holds this transaction's joins: they are not added a second time.
      if (pending === undefined) pending = read();
      else for (const [id, n] of added) pending.set(id, (pending.get(id) ?? 0) + n);
      added.clear();
      if (at - checkpointedAt < CHECKPOINT_MS) return;
      for (const [id, n] of pending) addCount.run(n, id);
      setCheckpoint.run();
      pending = new Map();
      checkpointedAt = at;
    },
    /** In the transaction sending digest `id`: the joins not yet in its row. */
    uncounted(id: string): number {
      pending ??= read();
      return pending.get(id) ?? 0;
    },
    /** After digest `id` was sent with its final count. */
    sent(id: string): void {
      pending?.delete(id);
    },
    /** After a rolled-back transaction: what it counted is read from the journal again. */
    rolledBack(): void {
      added.clear();
      pending = undefined;
    },
  };
}
