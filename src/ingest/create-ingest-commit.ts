import type { Metrics } from '../admin/metrics.js';
import type { Logger } from '../log/logger.js';
import type { IngestItem, IngestResult, Store } from '../store/store.js';
import { createGroupCommit, type GroupCommit } from './group-commit.js';

export interface IngestCommit extends GroupCommit<IngestItem, IngestResult> {
  /** The last group's failure, for /readyz, until a group commits again or readiness clears it. */
  lastError(): string | null;
  /** Readiness' probe committed a write with room to spare: the journal takes events again. */
  clearError(): void;
}

export const COMMITS_FAILING =
  'journal commits are failing; webhooks are answered 503 and /readyz fails until one succeeds';
export const COMMITS_BACK = 'journal commits succeed again';

/**
 * The daemon's ingest group commit: each group timed (`switchyard_journal_commit_seconds`), after the journal's
 * migration is ensured (at once, unless a shared journal was unreachable at start), its failure remembered.
 * An outage is logged once when it starts and once when it ends, with the journal (`journal()`: its name and,
 * on SQLite, the bytes free beside it): a full disk refuses every webhook, and a line for each would bury
 * the one that says why.
 */
export function createIngestCommit(deps: {
  readonly store: Pick<Store, 'ingest'>;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly ensureMigrated: () => Promise<void>;
  readonly journal: () => Record<string, unknown>;
}): IngestCommit {
  let lastError: string | null = null;
  let refused = 0;
  const recovered = (by: string): void => {
    if (lastError === null) return;
    deps.log.info(COMMITS_BACK, { by, refused, ...deps.journal() });
    lastError = null;
    refused = 0;
  };
  const group = createGroupCommit(async (items: readonly IngestItem[]) => {
    const started = performance.now();
    try {
      await deps.ensureMigrated();
      const results = await deps.store.ingest(items);
      recovered('a commit');
      return results;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (lastError === null) deps.log.error(COMMITS_FAILING, { error: message, ...deps.journal() });
      lastError = message;
      refused += items.length;
      throw error;
    } finally {
      deps.metrics.observe('switchyard_journal_commit_seconds', {}, (performance.now() - started) / 1000);
    }
  });
  return { ...group, lastError: () => lastError, clearError: () => recovered('the readiness probe') };
}
