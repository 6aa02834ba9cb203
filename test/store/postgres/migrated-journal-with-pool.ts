import pg from 'pg';
import { tempPostgresJournal, testDatabaseUrl } from '../temp-postgres-journal.js';

/**
 * A migrated journal in a schema of its own, a store on it, and a pool of `max` connections on that schema for
 * what the test sends itself (or a function that takes a pool); `cleanups` releases all three, last first.
 */
export async function migratedJournalWithPool(cleanups: (() => Promise<unknown>)[], max = 1) {
  const journal = await tempPostgresJournal();
  cleanups.push(() => journal.dispose());
  const store = await journal.open();
  cleanups.push(() => store.close());
  await store.migrate();
  const pool = new pg.Pool({ connectionString: testDatabaseUrl, options: `-c search_path=${journal.schema}`, max });
  cleanups.push(() => pool.end());
  return { journal, store, pool };
}
