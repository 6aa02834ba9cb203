import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SLACK_URL, SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

let sequence = 0;
// Distinct bodies: the same body twice within the dedupe window is one event.
const offline = (host: string) =>
  envelope('agent.offline', { host, agent: { id: `agt_${host}`, name: host }, n: (sequence += 1) });

async function cli(d: TestDaemon, args: string[]) {
  const run = spawnCli(['silence', ...args, '--config', path.join(d.dir, 'switchyard.yaml')], {
    TEST_SLACK_URL: SLACK_URL,
    USER: 'alice',
  });
  return { code: await run.exited, out: run.stdout(), err: run.stderr() };
}

async function post(d: TestDaemon, body: string) {
  const answer = await postWebhook(d.url, body, { secret: SOURCE_SECRET });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
}

describe('silences in a running daemon (real CLI process)', () => {
  it('a silence added through the CLI holds the next matching events: journaled, routed, recorded silenced, never sent', async () => {
    // Its timer never fires during the test: only the journal telling of another writer can make it re-read.
    const d = (daemon = await startTestDaemon(tempDir(), { silenceRefreshMs: 3_600_000 }));
    const before = await post(d, offline('db-1'));

    const added = await cli(d, [
      'add',
      '--match',
      '{event: agent.*, where: [{field: data.host, equals: db-1}]}',
      '--duration',
      '2h',
      '--comment',
      'patching db-1',
      '--json',
    ]);
    expect(added.code, added.err).toBe(0);
    const silence = JSON.parse(added.out) as { id: string; createdBy: string };
    expect(silence.createdBy).toBe('alice');
    // No wait: the daemon sees that another process wrote to its journal and reads silences before the next event.

    const held = await post(d, offline('db-1'));
    const other = await post(d, offline('db-2'));
    const deliveries = await d.deliveries();
    const of = (id: string) => deliveries.filter((x) => x.eventId === id).map((x) => [x.target, x.state, x.heldBy]);
    expect(of(held)).toEqual([
      ['tickets', 'silenced', silence.id],
      ['soc-slack', 'silenced', silence.id],
    ]);
    expect(of(before).every(([, state]) => state !== 'silenced')).toBe(true);
    expect(of(other).every(([, state]) => state !== 'silenced')).toBe(true);
    expect(d.logs().some((line) => line.message === 'event received' && line.silenced_by === silence.id)).toBe(true);

    const eventFile = path.join(d.dir, 'event.json');
    writeFileSync(eventFile, offline('db-1'));
    const routed = spawnCli(
      ['route', d.rulesPath, '--event', eventFile, '--config', path.join(d.dir, 'switchyard.yaml')],
      {
        TEST_SLACK_URL: SLACK_URL,
      },
    );
    expect(await routed.exited).toBe(0);
    expect(routed.stdout()).toContain(`silenced by ${silence.id} (alice, until `);

    const shown = spawnCli(['deliveries', '--state', 'silenced', '--config', path.join(d.dir, 'switchyard.yaml')], {});
    expect(await shown.exited).toBe(0);
    expect(shown.stdout()).toContain(`silenced by ${silence.id}`);

    const listed = await cli(d, ['list']);
    expect(listed.out).toContain(silence.id);
    expect(listed.out).toContain('patching db-1');

    const expired = await cli(d, ['expire', silence.id]);
    expect(expired.code, expired.err).toBe(0);
    expect(expired.out).toContain('expired');
    const after = await post(d, offline('db-1'));
    expect((await d.deliveries()).filter((x) => x.eventId === after).every((x) => x.state !== 'silenced')).toBe(true);
    // Held deliveries stay held after the silence ends (on_expiry: drop).
    expect((await d.deliveries()).filter((x) => x.eventId === held).map((x) => x.state)).toEqual([
      'silenced',
      'silenced',
    ]);
  }, 60_000);

  it('refuses invalid silences with exit 2 and stores nothing', async () => {
    const d = (daemon = await startTestDaemon(tempDir()));
    for (const args of [
      ['add', '--match', '{event: agent.*}', '--comment', 'no end'],
      ['add', '--match', '{severity: {at_least: apocalyptic}}', '--duration', '1h', '--comment', 'x'],
      ['add', '--match', '{event: [unclosed', '--duration', '1h', '--comment', 'x'],
      ['add', '--match', '{event: agent.*}', '--duration', '1h'],
    ]) {
      const refused = await cli(d, args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.err).toContain('invalid_silence');
    }
    expect((await cli(d, ['expire', 'sil_missing'])).code).toBe(1);
    expect((await cli(d, ['list', '--json'])).out).toBe('[]\n');
  }, 60_000);

  it('on_expiry deliver_unresolved: when the silence ends, sends what is still open, once', async () => {
    const receiver = await startHttpReceiver();
    try {
      const rules = `
targets:
  tickets: { type: http, url: "${receiver.url}/events" }
routes:
  - { name: all, to: [tickets] }
`;
      const d = (daemon = await startTestDaemon(tempDir(), { rules, silenceReleaseMs: 100 }));
      const store = createSqliteStore({ path: d.dbPath });
      try {
        const now = Date.now();
        await store.createSilence({
          id: 'sil_night',
          matchers: { event: 'incident.*' },
          startsAt: now,
          endsAt: now + 2_500,
          comment: 'night',
          createdBy: 'alice',
          onExpiry: 'deliver_unresolved',
          createdAt: now,
          updatedAt: now,
          releasedAt: null,
        });
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        const incident = (event: string, id: string) => envelope(event, { incident_id: id, title: `${event} ${id}` });
        const open = await post(d, incident('incident.created', 'inc_open'));
        await post(d, incident('incident.created', 'inc_closed'));
        await post(d, incident('incident.resolved', 'inc_closed'));
        expect((await d.deliveries()).map((x) => x.state)).toEqual(['silenced', 'silenced', 'silenced']);
        expect(receiver.requests).toHaveLength(0);

        const [sent] = await receiver.waitForRequests(1, 10_000);
        expect(JSON.parse(sent?.body.toString('utf8') ?? '{}')).toMatchObject({ data: { incident_id: 'inc_open' } });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(receiver.requests).toHaveLength(1);
        const states = (await d.deliveries()).map((x) => [x.eventId === open, x.state]);
        expect(states).toEqual([
          [true, 'delivered'],
          [false, 'silenced'],
          [false, 'silenced'],
        ]);
        expect((await store.getSilence('sil_night'))?.releasedAt).toEqual(expect.any(Number));
      } finally {
        await store.close();
      }
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('a silence made with matchers and a later start holds nothing before its start, and holds from it', async () => {
    const d = (daemon = await startTestDaemon(tempDir()));
    // The CLI's own clock decides "in the future": a minute ahead, then brought nearer in the journal (as a
    // change would: a new version), so that the test need not wait long.
    const added = await cli(d, [
      'add',
      'event=agent.offline',
      'data.host=~db-.*',
      '--starts-at',
      new Date(Date.now() + 60_000).toISOString(),
      '--duration',
      '1h',
      '--comment',
      'planned maintenance',
      '--json',
    ]);
    expect(added.code, added.err).toBe(0);
    const { id } = JSON.parse(added.out) as { id: string };
    const start = Date.now() + 5_000;
    const db = new Database(d.dbPath);
    try {
      db.prepare('UPDATE silences SET starts_at = ?, updated_at = updated_at + 1 WHERE id = ?').run(start, id);
    } finally {
      db.close();
    }
    const early = await post(d, offline('db-1'));
    expect(Date.now()).toBeLessThan(start);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now() + 100)));
    const held = await post(d, offline('db-1'));
    const other = await post(d, offline('web-1'));
    const states = async (event: string) =>
      (await d.deliveries()).filter((x) => x.eventId === event).map((x) => [x.state === 'silenced', x.heldBy]);
    expect((await states(early)).every(([silenced]) => !silenced)).toBe(true);
    expect(await states(held)).toEqual([
      [true, id],
      [true, id],
    ]);
    expect((await states(other)).every(([silenced]) => !silenced)).toBe(true);
  }, 60_000);

  it('a silence row as earlier versions wrote it (a route match:) still holds what it matches', async () => {
    const d = (daemon = await startTestDaemon(tempDir()));
    const now = Date.now();
    const db = new Database(d.dbPath);
    try {
      db.prepare(
        `INSERT INTO silences (id, matchers, starts_at, ends_at, comment, created_by, on_expiry, created_at, updated_at)
         VALUES ('sil_old', ?, ?, ?, 'old form', 'alice', 'drop', ?, ?)`,
      ).run('{"event":"agent.*","where":[{"field":"data.host","equals":"db-1"}]}', now, now + 3_600_000, now, now);
    } finally {
      db.close();
    }
    const held = await post(d, offline('db-1'));
    const other = await post(d, offline('db-2'));
    const of = async (event: string) =>
      (await d.deliveries()).filter((x) => x.eventId === event).map((x) => x.heldBy ?? null);
    expect(await of(held)).toEqual(['sil_old', 'sil_old']);
    expect(await of(other)).toEqual([null, null]);
  }, 60_000);
});
