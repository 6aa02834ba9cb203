import { createThreadStore } from '../../src/store/thread/create-thread-store.js';
import type { TestJournal } from './store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

/** A SQLite journal in a fresh temp folder, opened through the journal thread (store.sqlite.thread). */
export async function tempThreadJournal(): Promise<TestJournal & { path: string }> {
  const journal = await tempSqliteJournal();
  return { ...journal, open: async () => createThreadStore({ path: journal.path }) };
}
