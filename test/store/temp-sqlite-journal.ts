import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, type SqliteStoreOptions } from '../../src/store/sqlite/create-sqlite-store.js';
import type { TestJournal } from './store-contract.js';

/** A journal file in a fresh temp folder; `path` is where the store keeps it. */
export async function tempSqliteJournal(
  options: Omit<SqliteStoreOptions, 'path'> = {},
): Promise<TestJournal & { path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-store-'));
  const path = join(dir, 'journal.db');
  return {
    path,
    open: async () => createSqliteStore({ ...options, path }),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
