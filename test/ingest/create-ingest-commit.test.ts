import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../src/admin/switchyard-metrics.js';
import { COMMITS_BACK, COMMITS_FAILING, createIngestCommit } from '../../src/ingest/create-ingest-commit.js';
import { createLogger } from '../../src/log/create-logger.js';
import type { IngestItem, IngestResult } from '../../src/store/store.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { makeIngestItem } from '../store/make-ingest-item.js';

describe('createIngestCommit', () => {
  it('remembers the last group failure for readiness until a group commits, and times every group', async () => {
    const metrics = createMetrics(SWITCHYARD_METRICS);
    const answers: (Error | null)[] = [new Error('disk I/O error'), null];
    let ensured = 0;
    const captured = captureLogs();
    const commit = createIngestCommit({
      metrics,
      log: createLogger({ level: 'info', stream: captured.stream }),
      journal: () => ({ journal: '/var/lib/switchyard/journal.db' }),
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

  it('logs an outage once when commits start failing and once when one succeeds again, with the events refused', async () => {
    const answers: (Error | null)[] = [new Error('the disk is full (SQLITE_FULL)'), new Error('I/O error'), null];
    const captured = captureLogs();
    let free = 4096;
    const commit = createIngestCommit({
      metrics: createMetrics(SWITCHYARD_METRICS),
      log: createLogger({ level: 'info', stream: captured.stream }),
      ensureMigrated: async () => undefined,
      journal: () => ({ journal: '/var/lib/switchyard/journal.db', free_bytes: free }),
      store: {
        ingest: async (items: readonly IngestItem[]): Promise<IngestResult[]> => {
          const failure = answers.shift();
          if (failure) throw failure;
          return items.map((item) => ({ duplicate: false, eventId: item.event.id, deliveries: 0 }));
        },
      },
    });
    // Two in one group, then one alone: three events refused, one line.
    const group = [commit.submit(makeIngestItem()), commit.submit(makeIngestItem())];
    await expect(Promise.all(group)).rejects.toThrow('SQLITE_FULL');
    await expect(commit.submit(makeIngestItem())).rejects.toThrow('I/O error');
    free = 1 << 20;
    await commit.submit(makeIngestItem());
    await commit.submit(makeIngestItem());
    commit.clearError(); // nothing failing: nothing to say
    const lines = captured.logs().map(({ timestamp: _at, ...line }) => line);
    expect(lines).toEqual([
      {
        level: 'error',
        message: COMMITS_FAILING,
        error: 'the disk is full (SQLITE_FULL)',
        journal: '/var/lib/switchyard/journal.db',
        free_bytes: 4096,
      },
      {
        level: 'info',
        message: COMMITS_BACK,
        by: 'a commit',
        refused: 3,
        journal: '/var/lib/switchyard/journal.db',
        free_bytes: 1 << 20,
      },
    ]);
    answers.push(new Error('I/O error'));
    await expect(commit.submit(makeIngestItem())).rejects.toThrow('I/O error');
    commit.clearError();
    expect(
      captured
        .logs()
        .slice(2)
        .map((line) => [line.message, line.by, line.refused]),
    ).toEqual([
      [COMMITS_FAILING, undefined, undefined],
      [COMMITS_BACK, 'the readiness probe', 1],
    ]);
  });
});
