import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { DigestBuilder, GroupCheck } from '../../src/store/digest-records.js';
import type { IngestItem } from '../../src/store/store.js';
import { makeIngestItem, T0 } from './make-ingest-item.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

const GROUP: GroupCheck = { route: 'storm', key: 'storm|a', waitMs: 30_000, intervalMs: 0, maxEvents: 100 };
const grouped = (receivedAt: number, target = 'mail'): IngestItem => ({
  ...makeIngestItem({ targets: [target], receivedAt }),
  groups: [GROUP],
});

describe('SQLite digest counts (joins counted in memory, written once a second, migration 9)', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const journal = async () => {
    const created = await tempSqliteJournal();
    cleanups.push(() => created.dispose());
    const open = async (): Promise<SqliteStore> => {
      const store = createSqliteStore({ path: created.path });
      cleanups.push(() => store.close());
      await store.migrate();
      return store;
    };
    // What the row says, read by another connection as the console or a CLI would.
    const rowCount = (): number | undefined => {
      const db = new Database(created.path, { readonly: true });
      try {
        return db.prepare<[], number>('SELECT count FROM digests').pluck().get();
      } finally {
        db.close();
      }
    };
    return { open, rowCount, path: created.path };
  };
  const sendOnly = async (store: SqliteStore, now: number): Promise<number | undefined> => {
    const [id] = await store.findDueDigests(now, 10);
    let count: number | undefined;
    const build: DigestBuilder = (digest) => {
      count = digest.count;
      return { ...makeIngestItem({ receivedAt: now }).event, kind: 'switchyard.digest', source: 'switchyard' };
    };
    expect(id).toBeDefined();
    expect(await store.sendDigest(id!, now, build)).toMatch(/^dlv_/);
    return count;
  };

  it('writes the row at most once a second, and sends the full count, also after a reopen that lost memory', async () => {
    const { open, rowCount } = await journal();
    const first = await open();
    await first.ingest([grouped(T0)]); // the first group writes (nothing written yet)
    await first.ingest([grouped(T0 + 10)]);
    await first.ingest([grouped(T0 + 20), grouped(T0 + 21)]);
    expect(rowCount()).toBe(1); // three joins counted in memory only
    await first.close(); // as a crash would: the memory is gone, the deliveries are committed

    const second = await open();
    await second.ingest([grouped(T0 + 30)]);
    expect(await sendOnly(second, T0 + 40_000)).toBe(5);
    expect(rowCount()).toBe(5); // a sent digest keeps its final count
  });

  it('counts a member that left the grouped state as a join, with or without a restart in between', async () => {
    const counted = async (restart: boolean): Promise<number | undefined> => {
      const { open, path } = await journal();
      let store = await open();
      await store.ingest([grouped(T0)]);
      await store.ingest([grouped(T0 + 10), grouped(T0 + 20)]);
      // The newest member: one after the checkpoint, counted in memory only.
      const members = await store.findDeliveries({ state: 'grouped', limit: 10 });
      const member = members.sort((a, b) => Number(b.id.slice(4)) - Number(a.id.slice(4)))[0];
      expect(member?.id).toBe('dlv_3');
      // A replay refuses it (held deliveries are never replayed); older versions requeued it, as this does.
      expect(await store.replay({ ids: [member!.id], includeDelivered: true }, T0 + 30)).toEqual([]);
      const db = new Database(path);
      db.prepare("UPDATE deliveries SET state = 'pending' WHERE id = 3").run();
      db.close();
      if (restart) {
        await store.close();
        store = await open();
      }
      await store.ingest([grouped(T0 + 40)]);
      return sendOnly(store, T0 + 40_000);
    };
    expect(await counted(false)).toBe(4);
    expect(await counted(true)).toBe(4);
  });

  it('writes the counts once a second of event time passed', async () => {
    const { open, rowCount } = await journal();
    const store = await open();
    await store.ingest([grouped(T0)]);
    await store.ingest([grouped(T0 + 500)]);
    expect(rowCount()).toBe(1);
    await store.ingest([grouped(T0 + 1_000)]);
    expect(rowCount()).toBe(3);
  });
});
