import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../src/admin/switchyard-metrics.js';
import { createIngestCommit } from '../../src/ingest/create-ingest-commit.js';
import type { IngestItem, IngestResult } from '../../src/store/store.js';
import { makeIngestItem } from '../store/make-ingest-item.js';

describe('createIngestCommit', () => {
  it('remembers the last group failure for readiness until a group commits, and times every group', async () => {
    const metrics = createMetrics(SWITCHYARD_METRICS);
    const answers: (Error | null)[] = [new Error('disk I/O error'), null];
    let ensured = 0;
    const commit = createIngestCommit({
      metrics,
      ensureMigrated: async () => void (ensured += 1),
      store: {
        ingest: async (items: readonly IngestItem[]): Promise<IngestResult[]> => {
          const failure = answers.shift();
          if (failure) throw failure;
          return items.map((item) => ({ duplicate: false, eventId: item.event.id, deliveries: 0 }));
        },
      },
    });
    expect(commit.lastError()).toBeNull();
    await expect(commit.submit(makeIngestItem())).rejects.toThrow('disk I/O error');
    expect(commit.lastError()).toBe('disk I/O error');
    commit.clearError();
    expect(commit.lastError()).toBeNull();
    answers.unshift(new Error('disk I/O error'));
    await expect(commit.submit(makeIngestItem())).rejects.toThrow('disk I/O error');
    await expect(commit.submit(makeIngestItem())).resolves.toMatchObject({ duplicate: false });
    expect(commit.lastError()).toBeNull();
    expect(ensured).toBe(3);
    expect(await metrics.render()).toMatch(/switchyard_journal_commit_seconds_count 3/);
  });
});
