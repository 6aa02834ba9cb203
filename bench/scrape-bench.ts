// What a metrics scrape costs the daemon's thread on a large SQLite journal (issue 11): the
// `switchyard_deliveries` gauge counts every delivery by target and state. Fills a journal with N deliveries
// (bench/fill-finished-journal.ts, spread over four targets and four states), then, in alternate order for each
// round, counts them the way the gauge did before (one statement) and the way the store does now
// (`countByTarget`, a slice of ids per turn of the event loop), while `monitorEventLoopDelay` samples how late
// the event loop ran. Reports each way's time to the answer and the longest and p99 delay of the event loop.
// Run: npx tsx bench/scrape-bench.ts [deliveries, default 1000000] [rounds, default 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import { fillFinishedJournal } from './fill-finished-journal.js';
import { median } from './summarize.js';

const deliveries = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-scrape-bench-'));
const file = path.join(dir, 'journal.db');

interface Sample {
  readonly ms: number;
  readonly maxDelayMs: number;
  readonly p99DelayMs: number;
}

try {
  console.log(`filling a journal with ${deliveries.toLocaleString('en-US')} deliveries...`);
  await fillFinishedJournal(file, deliveries);
  const db = new Database(file);
  db.exec(`UPDATE deliveries SET target = CASE id % 4 WHEN 0 THEN 'soc-slack' WHEN 1 THEN 'tickets'
    WHEN 2 THEN 'oncall-mail' ELSE 'pager' END`);
  db.exec(`UPDATE deliveries SET state = 'dead' WHERE id % 97 = 0`);
  db.exec(`UPDATE deliveries SET state = 'suppressed' WHERE id % 31 = 0`);
  db.exec(`UPDATE deliveries SET state = 'pending' WHERE id > (SELECT max(id) - 2000 FROM deliveries)`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const oneStatement = db.prepare(
    'SELECT target, state, count(*) AS count FROM deliveries GROUP BY target, state ORDER BY target, state',
  );
  const store = createSqliteStore({ path: file });
  const ways: Record<string, () => Promise<unknown>> = {
    'one statement': async () => oneStatement.all(),
    slices: () => store.countByTarget(),
  };
  // A warm page cache for both: the first pass reads the file from disk.
  await ways['one statement']?.();
  await ways.slices?.();

  const samples = new Map<string, Sample[]>(Object.keys(ways).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? Object.keys(ways) : Object.keys(ways).reverse();
    for (const name of order) {
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      // Let the monitor's timer start before the count.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      await ways[name]?.();
      const ms = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 5));
      delay.disable();
      const sample = { ms, maxDelayMs: delay.max / 1e6, p99DelayMs: delay.percentile(99) / 1e6 };
      samples.get(name)?.push(sample);
      console.log(
        `  round ${round + 1} ${name.padEnd(13)} ${ms.toFixed(0).padStart(5)} ms to the answer, event loop late by ` +
          `at most ${sample.maxDelayMs.toFixed(1)} ms (p99 ${sample.p99DelayMs.toFixed(1)} ms)`,
      );
    }
  }
  await store.close();
  db.close();
  console.log(`\nmedians over ${rounds} rounds, ${deliveries.toLocaleString('en-US')} deliveries:`);
  for (const [name, list] of samples) {
    const of = (pick: (s: Sample) => number) => median(list.map(pick)).toFixed(1);
    console.log(
      `  ${name.padEnd(13)} time ${of((s) => s.ms)} ms, longest event-loop delay ${of((s) => s.maxDelayMs)} ms, ` +
        `p99 delay ${of((s) => s.p99DelayMs)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
