import { afterEach } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { tempPostgresJournal, type TempPostgresJournal } from './temp-postgres-journal.js';

/**
 * For a PostgreSQL describe block: fresh journals and stores on them, all closed and dropped after each test
 * (last made, first closed). `track` adds a cleanup of the caller's own.
 */
export function postgresJournals() {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const track = (cleanup: () => Promise<unknown>): void => {
    cleanups.push(cleanup);
  };
  return {
    track,
    async journal(): Promise<TempPostgresJournal> {
      const created = await tempPostgresJournal();
      track(() => created.dispose());
      return created;
    },
    async migrated(on: TempPostgresJournal): Promise<Store> {
      const store = await on.open();
      track(() => store.close());
      await store.migrate();
      return store;
    },
  };
}
