import { afterEach, describe, expect, it } from 'vitest';
import { checkReadiness, type ReadinessSources } from '../../src/admin/check-readiness.js';
import type { Store } from '../../src/store/store.js';
import { tempSqliteJournal } from '../store/temp-sqlite-journal.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migratedStore(): Promise<Store> {
  const journal = await tempSqliteJournal();
  const store = await journal.open();
  await store.migrate();
  cleanups.push(
    () => journal.dispose(),
    () => store.close(),
  );
  return store;
}

function sources(store: Store, free: number | undefined): ReadinessSources & { cleared: () => number } {
  let error: string | null = 'the event journal is unavailable: the disk is full (SQLITE_FULL)';
  let cleared = 0;
  return {
    accepting: () => true,
    store,
    rulesVersion: () => 'v1',
    reloadStatus: () => ({ ok: true, at: null, trigger: null, error: null }),
    lastCommitError: () => error,
    clearCommitError: () => {
      error = null;
      cleared += 1;
    },
    freeBytes: () => free,
    roomBytes: 4 * 1024 * 1024,
    cleared: () => cleared,
  };
}

describe('checkReadiness after a failed commit', () => {
  it('stays not ready while the probe write commits but the disk lacks room for the largest events', async () => {
    const failed = sources(await migratedStore(), 100 * 1024);
    const readiness = await checkReadiness(failed);
    expect(readiness.ready).toBe(false);
    expect(readiness.checks.ingest).toEqual({
      ok: false,
      error: "the journal's disk has 102400 bytes free; ingest is ready again once it has 4194304",
    });
    expect(failed.cleared()).toBe(0);
  });

  it('is ready again once the probe commits with room to spare, or where the room cannot be read', async () => {
    const store = await migratedStore();
    for (const free of [4 * 1024 * 1024, undefined]) {
      const failed = sources(store, free);
      expect(await checkReadiness(failed)).toMatchObject({ ready: true, checks: { ingest: { ok: true } } });
      expect(failed.cleared()).toBe(1);
    }
  });
});
