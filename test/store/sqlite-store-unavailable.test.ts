import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { filesystemFaults as faults } from './filesystem-faults.js';
import { makeIngestItem } from './make-ingest-item.js';

/** Names the test after the condition it needs when that condition cannot be produced on this machine. */
function needs(reason: string | undefined, name: string) {
  return [reason !== undefined, reason === undefined ? name : `${name} (skipped: ${reason})`] as const;
}

describe('SQLite store when the journal cannot take writes', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-store-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }
  async function migrated(path: string): Promise<Store> {
    const store = createSqliteStore({ path });
    cleanups.push(() => store.close());
    await store.migrate();
    return store;
  }

  const [noMount, diskFullName] = needs(
    faults.mountSkipReason,
    'disk full: 503, nothing of the group stored, works again once space is freed',
  );
  it.skipIf(noMount)(diskFullName, async () => {
    const dir = await tempDir();
    faults.mountTmpfs(dir, 1024 * 1024);
    cleanups.push(() => faults.unmount(dir));
    const store = await migrated(join(dir, 'journal.db'));
    const before = makeIngestItem();
    await store.ingest([before]);
    const filler = join(dir, 'filler');
    faults.fill(filler);
    // Large enough that the WAL must grow past the space it already holds.
    const group = [makeIngestItem(), makeIngestItem({ body: Buffer.alloc(256 * 1024, 0x7b) })];

    await expect(store.ingest(group)).rejects.toMatchObject({
      code: 'journal_unavailable',
      status: 503,
      cause: { code: 'SQLITE_FULL' },
    });

    expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
    await unlink(filler);
    expect((await store.ingest(group)).map((r) => r.duplicate)).toEqual([false, false]);
    expect(await store.counts()).toEqual({ events: 3, deliveries: 6 });
  });

  const [noImmutable, ioErrorName] = needs(
    faults.immutableSkipReason,
    'a journal file that stops taking writes (as on a filesystem remounted read-only): 503, then recovers',
  );
  it.skipIf(noImmutable)(ioErrorName, async () => {
    const path = join(await tempDir(), 'journal.db');
    const store = await migrated(path);
    await store.ingest([makeIngestItem()]);
    // Not the -shm file: SQLite maps it into memory, and a write refused there is a SIGBUS, not an error.
    const files = [path, `${path}-wal`];
    for (const file of files) faults.setImmutable(file, true);
    cleanups.push(() => files.forEach((file) => faults.setImmutable(file, false)));
    const item = makeIngestItem();

    await expect(store.ingest([item])).rejects.toMatchObject({
      code: 'journal_unavailable',
      status: 503,
      cause: { code: expect.stringMatching(/^SQLITE_IOERR/) },
    });

    for (const file of files) faults.setImmutable(file, false);
    expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
    expect((await store.ingest([item]))[0]).toMatchObject({ duplicate: false });
  });

  const [noReadOnlyMount, readOnlyName] = needs(
    faults.mountSkipReason,
    'a journal on a read-only mount is refused at start',
  );
  it.skipIf(noReadOnlyMount)(readOnlyName, async () => {
    const dir = await tempDir();
    const first = await migrated(join(dir, 'journal.db'));
    await first.ingest([makeIngestItem()]);
    await first.close();
    const readOnly = await tempDir();
    faults.bindReadOnly(dir, readOnly);
    cleanups.push(() => faults.unmount(readOnly));

    const store = createSqliteStore({ path: join(readOnly, 'journal.db') });
    cleanups.push(() => store.close());

    // WAL needs its -shm and -wal files next to the journal, so SQLite cannot even open it read-only.
    await expect(store.migrate()).rejects.toMatchObject({ code: 'journal_unavailable', status: 503 });
  });
});
