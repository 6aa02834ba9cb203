import type { PostgresStoreConfig } from '../../config/config.js';
import { createStore } from '../../store/create-store.js';
import { describeStore } from '../../store/describe-store.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * Connects to the shared journal and reads its schema version (nothing is written). Whether the server takes
 * writes is not checked: a read-only server shows up as ingest 503s and in /readyz.
 */
export async function checkPostgresJournal(config: PostgresStoreConfig): Promise<DoctorCheck> {
  const item = 'journal';
  const where = describeStore(config);
  const store = await createStore(config);
  try {
    await store.ping();
    return { verdict: 'OK', item, detail: `${where}: reachable, schema current` };
  } catch (error) {
    if (error instanceof SwitchyardError && error.code === 'journal_not_migrated') {
      return {
        verdict: 'WARN',
        item,
        detail: `${where}: reachable, schema behind: the daemon migrates it at start, or run switchyard migrate`,
      };
    }
    // Store errors name the condition and the code, never the URL.
    return { verdict: 'FAIL', item, detail: `${where}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await store.close();
  }
}
