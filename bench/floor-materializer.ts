/**
 * The worker thread of bench/floor-server.ts's `append` floor: what a journal that only appends at ingest
 * would do later, in bulk, on the second core. It reads the bodies the main thread appended to the inbox
 * (`workerData.inbox`), writes what the daemon writes for them into Switchyard's own store
 * (`workerData.journal`: the duplicate lookup, the event row, a pending delivery per target) and deletes them
 * from the inbox, a batch of up to 5,000 at a time. It posts how many rows it has moved after each batch.
 * Only the cost is the daemon's: the events' receipt times are the move's (the inbox keeps none), a crash
 * between the two commits would move a batch twice, and a duplicate's answer carries the inbox's id. A daemon
 * built this way would keep the receipt time in the inbox and make the move idempotent.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { switchyardJournal } from './floor-journals.js';

const { inbox, journal: journalFile } = workerData as { inbox: string; journal: string };
// Large batches, a pause when the inbox runs short: fewer commits on both files and fewer hand-overs of the
// inbox's write lock. Batches of 1,000 with 2 ms pauses took 8,400-9,900 req/s against 9,900-12,300 (3 rounds).
const BATCH = 5_000;
const PAUSE_MS = 100;

const journal = await switchyardJournal(journalFile);
const db = new Database(inbox, { timeout: 5_000 });
db.pragma('synchronous = FULL');
// From the start each time, not from a cursor: rows read are deleted below, and once the table is empty
// SQLite hands out rowids from 1 again (no AUTOINCREMENT), below any cursor.
const next = db.prepare('SELECT rowid, id, body FROM events ORDER BY rowid LIMIT ?');
const remove = db.prepare('DELETE FROM events WHERE rowid <= ?');

let moved = 0;
let stopping = false;
parentPort?.on('message', (message: string) => {
  if (message === 'stop') stopping = true;
});

type Row = { rowid: number; id: string; body: Buffer };
for (;;) {
  const rows = next.all(BATCH) as Row[];
  if (rows.length === 0) {
    if (stopping) break;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    continue;
  }
  await journal.commitGroup(
    rows.map((row) => row.body),
    rows.map((row) => row.id),
  );
  remove.run(rows.at(-1)?.rowid ?? 0);
  moved += rows.length;
  parentPort?.postMessage(moved);
  if (rows.length < BATCH) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}
await journal.close();
db.close();
parentPort?.close(); // its listener would keep the thread alive
