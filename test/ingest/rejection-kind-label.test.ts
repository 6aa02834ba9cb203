import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { eventKindLabel } from '../../src/ingest/event-kind-label.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const TOKEN = 'metrics-token-0123456789abcdef';
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

async function received(d: TestDaemon, kind: string, outcome: string): Promise<number | undefined> {
  const text = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const series = `switchyard_events_received_total{source="monitor",kind="${kind}",outcome="${outcome}"} `;
  const line = text.split('\n').find((l) => l.startsWith(series));
  return line === undefined ? undefined : Number(line.slice(series.length));
}

describe('the kind label of refused webhooks', () => {
  it('maps documented kinds to themselves, any other kind to "other", and no kind yet to ""', () => {
    expect(eventKindLabel('incident.created')).toBe('incident.created');
    expect(eventKindLabel('agent.offline')).toBe('agent.offline');
    expect(eventKindLabel('malware.quarantined')).toBe('other');
    expect(eventKindLabel('x'.repeat(10_000))).toBe('other');
    expect(eventKindLabel('')).toBe('other');
    expect(eventKindLabel(undefined)).toBe('');
  });

  it('labels refusals after parsing with the event kind, bounded as accepted events are', async () => {
    const clock = manualClock(Date.parse('2026-11-22T12:00:00Z'));
    daemon = await startTestDaemon(tempDir(), {
      maxEventAge: '1h',
      clock,
      busyTimeout: '100ms',
      env: { SWITCHYARD_ADMIN_TOKEN: TOKEN },
    });
    const post = (body: string) => postWebhook(daemon!.url, body, { secret: SOURCE_SECRET });
    const old = '2026-11-22T10:00:00Z';
    expect((await post(envelope('incident.created', { n: 1 }, old))).status).toBe(400);
    expect((await post(envelope('incident.created', { n: 2 }, old))).status).toBe(400);
    expect((await post(envelope('attacker.chosen.kind', { n: 3 }, old))).status).toBe(400);
    // Invalid envelope or JSON: no kind is known yet.
    expect((await post(JSON.stringify({ event: 'agent.offline', timestamp: 'yesterday', data: {} }))).status).toBe(400);
    expect((await post('{"event": "agent.offline",')).status).toBe(400);
    // The journal refuses the commit: the event was parsed, so its kind is known.
    const blocker = new Database(daemon.dbPath);
    blocker.exec('BEGIN IMMEDIATE');
    const locked = await post(envelope('agent.offline', { n: 4 }, '2026-11-22T11:30:00Z'));
    blocker.exec('ROLLBACK');
    blocker.close();
    expect(locked.status).toBe(503);

    expect(await received(daemon, 'incident.created', 'event_too_old')).toBe(2);
    expect(await received(daemon, 'other', 'event_too_old')).toBe(1);
    expect(await received(daemon, '', 'event_too_old')).toBeUndefined();
    expect(await received(daemon, 'agent.offline', 'journal_unavailable')).toBe(1);
    expect(await received(daemon, '', 'journal_unavailable')).toBeUndefined();
    expect(await received(daemon, '', 'invalid_envelope')).toBe(1);
    expect(await received(daemon, '', 'invalid_json')).toBe(1);
    const text = await (await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).not.toContain('attacker.chosen.kind');

    // The log names the kind as sent (it is not a metric label, so it cannot grow the series).
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({ message: 'webhook rejected', reason: 'event_too_old', kind: 'attacker.chosen.kind' }),
    );
  });
});
