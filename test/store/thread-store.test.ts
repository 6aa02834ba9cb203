import Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { createThreadStore } from '../../src/store/thread/create-thread-store.js';
import { makeIngestItem, T0 } from './make-ingest-item.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describe('SQLite journal thread', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function migrated(options: { busyTimeoutMs?: number } = {}) {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    let worker: Worker | undefined;
    const store = createThreadStore({ path: journal.path, ...options }, { onWorker: (w) => (worker = w) });
    cleanups.push(() => store.close());
    await store.migrate();
    return { store, path: journal.path, worker: () => worker! };
  }

  it('gives bodies back as Buffers, byte for byte, from getEvent and claimDue', async () => {
    const { store } = await migrated();
    const body = Buffer.from([0x7b, 0x00, 0xff, 0x80, 0x7d]);
    const item = makeIngestItem({ body, targets: ['soc-slack'] });
    await store.ingest([item]);
    const event = await store.getEvent(item.event.id);
    expect(Buffer.isBuffer(event?.body)).toBe(true);
    expect(event?.body.equals(body)).toBe(true);
    const [claimed] = await store.claimDue({ target: 'soc-slack', now: T0, limit: 10, leaseMs: 1000 });
    expect(Buffer.isBuffer(claimed?.event.body)).toBe(true);
    expect(claimed?.event.body.toString('latin1')).toBe(body.toString('latin1'));
  });

  it('rebuilds the journal errors: journal_unavailable (503) with its cause, and SQLite errors with their code', async () => {
    const { store, path } = await migrated({ busyTimeoutMs: 0 });
    const other = new Database(path);
    cleanups.push(() => other.close());
    other.exec('BEGIN IMMEDIATE');
    const busy = await store.ingest([makeIngestItem()]).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(SwitchyardError);
    expect(busy).toMatchObject({
      name: 'SwitchyardError',
      code: 'journal_unavailable',
      status: 503,
      cause: { name: 'SqliteError', code: 'SQLITE_BUSY' },
    });
    other.exec('ROLLBACK');
    const twice = { ...makeIngestItem(), targets: ['a', 'a'] };
    await expect(store.ingest([twice])).rejects.toMatchObject({
      name: 'SqliteError',
      code: expect.stringMatching(/^SQLITE_CONSTRAINT/) as unknown,
    });
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('fails pending and later calls with journal_unavailable when its thread dies, and still closes', async () => {
    const { store, worker } = await migrated();
    expect(store.threadFailure()).toBeNull(); // running
    const exited = new Promise((resolve) => worker().once('exit', resolve));
    void worker().terminate();
    const pending = store.ingest([makeIngestItem()]);
    await expect(pending).rejects.toMatchObject({ code: 'journal_unavailable', status: 503 });
    await exited;
    await expect(store.ping()).rejects.toMatchObject({ code: 'journal_unavailable' });
    // Not started again: liveness reads why, so that the process is restarted.
    expect(store.threadFailure()).toMatch(/^the event journal is unavailable: its thread exited with code \d+$/);
    await store.close();
    expect(store.threadFailure()).not.toBeNull(); // it still died; close() did not end it
  });

  it('closes the store in its thread and ends the thread; afterwards calls reject with journal_closed', async () => {
    const { store, worker } = await migrated();
    let exited = false;
    worker().once('exit', () => (exited = true));
    await Promise.all([store.ingest([makeIngestItem()]), store.close(), store.close()]);
    expect(exited).toBe(true);
    await expect(store.counts()).rejects.toMatchObject({ code: 'journal_closed' });
    expect(store.threadFailure()).toBeNull(); // an end that close() asked for is no failure
  });

  it('has no failure before its thread starts (on the first call), nor after a close that started none', async () => {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    const store = createThreadStore({ path: journal.path });
    expect(store.threadFailure()).toBeNull();
    await store.close();
    expect(store.threadFailure()).toBeNull();
  });

  it('counts commits of other connections (the CLI beside the daemon) in changesByOthers', async () => {
    const { store, path } = await migrated();
    const before = await store.changesByOthers!();
    await store.ingest([makeIngestItem()]);
    expect(await store.changesByOthers!()).toBe(before);
    const cli = createSqliteStore({ path });
    cleanups.push(() => cli.close());
    await cli.ingest([makeIngestItem()]);
    expect(await store.changesByOthers!()).not.toBe(before);
  });

  it('sends a digest as its builder saw it: an ingest made while it builds waits until the digest is sent', async () => {
    const { store } = await migrated();
    const group = {
      route: 'storm',
      key: 'storm|a',
      waitMs: 1_000,
      intervalMs: 60_000,
      maxEvents: 10,
      digestId: 'dig_1',
    };
    const joining = (receivedAt: number, digestId = 'dig_1') => ({
      ...makeIngestItem({ targets: ['slack'], receivedAt }),
      groups: [{ ...group, digestId }],
    });
    await store.ingest([joining(T0), joining(T0 + 1)]);
    const counts: number[] = [];
    let late: Promise<unknown> | undefined;
    const sent = await store.sendDigest('dig_1', T0 + 5_000, (digest) => {
      counts.push(digest.count);
      late ??= store.ingest([joining(T0 + 2, 'dig_1b')]); // posted between the peek and the commit
      return { ...makeIngestItem({ receivedAt: T0 + 5_000 }).event, kind: 'switchyard.digest' };
    });
    await late;
    expect(sent).toMatch(/^dlv_/);
    expect(counts).toEqual([2]); // built once, from what was sent
    // The late event did not join the digest already sent: it opened the next one.
    const grouped = await store.findDeliveries({ state: 'grouped', limit: 10 });
    expect(grouped.map((d) => d.heldBy)).toEqual(['dig_1', 'dig_1', 'dig_1b']);
  });

  it('lets other calls go on when a digest builder throws', async () => {
    const { store } = await migrated();
    const group = { route: 'storm', key: 'storm|a', waitMs: 0, intervalMs: 0, maxEvents: 10, digestId: 'dig_2' };
    await store.ingest([{ ...makeIngestItem({ targets: ['slack'] }), groups: [group] }]);
    await expect(
      store.sendDigest('dig_2', T0 + 1, () => {
        throw new Error('builder failed');
      }),
    ).rejects.toThrow('builder failed');
    expect(await store.counts()).toEqual({ events: 1, deliveries: 1 });
    expect(await store.findDueDigests(T0 + 1, 10)).toEqual(['dig_2']);
  });
});
