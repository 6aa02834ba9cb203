import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { watchWorkerThreads } from '../helpers/watch-worker-threads.js';

const tempDir = useTempDirs();
const WORKER = 'delivery: { worker_thread: true }';

// Issue 11's `delivery.worker_thread`: a worker that fails to start, or dies later, must not go unnoticed.
describe('the delivery worker thread’s lifecycle', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a worker that fails to start fails the daemon’s start, ends its thread and releases the journal', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal.db');
    const store = createSqliteStore({ path: journal });
    await store.migrate();
    await store.close();
    // Another connection (a backup, an sqlite3 shell) holds the journal's write lock longer than busy_timeout:
    // the main thread only reads at start, the worker's first write (releasing a dead run's claims) fails.
    const holder = new Database(journal);
    cleanups.push(() => holder.close());
    holder.exec('BEGIN IMMEDIATE');
    const threads = watchWorkerThreads();

    await expect(startTestDaemon(dir, { config: WORKER, busyTimeout: '50ms' })).rejects.toThrow(
      /^the delivery worker failed to start: .*locked/,
    );
    expect(threads).toHaveLength(1);
    // Ended by the time start rejected: nothing of the failed start is left running.
    expect(threads[0]?.exited()).toBe(true);

    // The lock gone, the same journal starts at once: the failed start released it (and its daemon lock).
    holder.exec('ROLLBACK');
    const daemon = await startTestDaemon(dir, { config: WORKER, busyTimeout: '50ms' });
    await daemon.running.close();
    expect(threads).toHaveLength(2);
    await threads[1]?.exit;
  });
});
