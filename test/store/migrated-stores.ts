import { afterEach } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { TestJournal } from './store-contract.js';

/**
 * For a contract's describe block: returns `openMigrated()`, which makes a fresh journal and a migrated store on
 * it; both are closed and removed after each test.
 */
export function migratedStores(createJournal: () => Promise<TestJournal>): () => Promise<Store> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async () => {
    const journal = await createJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    cleanups.push(() => store.close());
    await store.migrate();
    return store;
  };
}
