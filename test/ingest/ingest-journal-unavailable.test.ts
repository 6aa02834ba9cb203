import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

describe('ingest: journal unavailable', () => {
  it('answers 503 with Retry-After while another writer holds the journal, stores nothing, then recovers', async () => {
    daemon = await startTestDaemon(tempDir(), { busyTimeout: '100ms' });
    const body = envelope('incident.created', { incident_id: 'inc_locked', severity: 'high' });

    const blocker = new Database(daemon.dbPath);
    blocker.exec('BEGIN IMMEDIATE');
    const answer = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    blocker.exec('ROLLBACK');
    blocker.close();

    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ error: { code: 'journal_unavailable', message: expect.any(String) } });
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });

    // The sender retries the same bytes; now the journal takes them, and not as a duplicate.
    const retry = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ duplicate: false, deliveries: 2 });
  });
});
