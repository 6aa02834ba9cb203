import type { Metrics } from '../admin/metrics.js';
import type { IngestItem, IngestResult, Store } from '../store/store.js';
import { createGroupCommit, type GroupCommit } from './group-commit.js';

export interface IngestCommit extends GroupCommit<IngestItem, IngestResult> {
  /** The last group's failure, for /readyz, until a group commits again or readiness clears it. */
  lastError(): string | null;
  clearError(): void;
}

/**
 * The daemon's ingest group commit: each group timed (`switchyard_journal_commit_seconds`), after the journal's
 * migration is ensured (at once, unless a shared journal was unreachable at start), its failure remembered.
 */
export function createIngestCommit(deps: {
  readonly store: Pick<Store, 'ingest'>;
  readonly metrics: Metrics;
  readonly ensureMigrated: () => Promise<void>;
}): IngestCommit {
  let lastError: string | null = null;
  const group = createGroupCommit(async (items: readonly IngestItem[]) => {
    const started = performance.now();
    try {
      await deps.ensureMigrated();
      const results = await deps.store.ingest(items);
      lastError = null;
      return results;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      deps.metrics.observe('switchyard_journal_commit_seconds', {}, (performance.now() - started) / 1000);
    }
  });
  return { ...group, lastError: () => lastError, clearError: () => void (lastError = null) };
}
