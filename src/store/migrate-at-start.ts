import type { Logger } from '../log/logger.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { Store } from './store.js';

export interface MigrationAtStart {
  /** Resolves once the schema is current; otherwise tries now (one try at a time) and rejects as the store does. */
  ensure(): Promise<void>;
  /** Stops retrying in the background (shutdown). */
  stop(): void;
}

export interface MigrateAtStartOptions {
  readonly log: Logger;
  /**
   * True for a shared journal (PostgreSQL): a database that cannot be reached does not stop the daemon. It
   * starts not ready (ingest answers 503, /readyz says why), and an orchestrator restarting it in a loop would
   * gain nothing; migrations are retried until they apply. False for SQLite, where a journal that cannot be
   * opened is a local problem (a path, permissions, a full disk) that the operator must see at once.
   */
  readonly waitForDatabase: boolean;
  /** Time between background tries; default 2000. */
  readonly retryMs?: number;
}

/** Applies the journal's migrations at start-up, or, on an unreachable shared journal, as soon as it answers. */
export async function migrateAtStart(store: Store, options: MigrateAtStartOptions): Promise<MigrationAtStart> {
  const { log } = options;
  let done = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ensure = (): Promise<void> => {
    if (done) return Promise.resolve();
    running ??= store
      .migrate()
      .then(() => void (done = true))
      .finally(() => (running = undefined));
    return running;
  };
  const migration: MigrationAtStart = {
    ensure,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
  try {
    await ensure();
    return migration;
  } catch (error) {
    if (!options.waitForDatabase || !(error instanceof SwitchyardError && error.code === 'journal_unavailable')) {
      throw error;
    }
    log.error('the journal cannot be reached: starting not ready, ingest answers 503 until it can', {
      error: error.message,
    });
  }
  let lastError = '';
  const retry = (): void => {
    timer = setTimeout(() => {
      ensure().then(
        () => log.info('the journal can be reached again; its schema is current'),
        (error: unknown) => {
          if (stopped) return;
          const message = error instanceof Error ? error.message : String(error);
          if (message !== lastError) log.error('the journal still cannot be reached', { error: message });
          lastError = message;
          retry();
        },
      );
    }, options.retryMs ?? 2_000);
    timer.unref();
  };
  retry();
  return migration;
}
