import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import type { HttpReceiver } from '../helpers/start-http-receiver.js';
import { startTeamsStandIn } from '../helpers/start-teams-stand-in.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();

const SIG = 'teams-e2e-sig-Zq81mxv0c7lw5e2r';
const HOOK_PATH = `/workflows/0a1b2c3d4e5f60718293a4b5c6d7e8f9/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`;

const EVERYTHING_TO_TEAMS = `
targets:
  soc-teams: { type: teams, webhook_url: "\${TEAMS_WEBHOOK_URL}" }
routes:
  - { name: all, to: [soc-teams] }
`;

interface Card {
  body: { type: string; text?: string; items?: { text: string }[]; facts?: { title: string; value: string }[] }[];
}
const cardOf = (receiver: HttpReceiver, index: number) =>
  (
    JSON.parse(receiver.requests[index]?.body.toString('utf8') ?? '{}') as {
      attachments: { content: Card }[];
    }
  ).attachments[0]!.content;

describe('Teams delivery end to end (daemon, journal, a Workflows webhook stand-in)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function start(rules: string, options: Parameters<typeof startTestDaemon>[1] = {}) {
    const teams = await startTeamsStandIn();
    cleanups.push(() => teams.close());
    const env = { TEAMS_WEBHOOK_URL: `${teams.url}${HOOK_PATH}` };
    const daemon: TestDaemon = await startTestDaemon(tempDir(), { rules, env, random: () => 0, ...options });
    cleanups.push(() => daemon.running.close());
    return { teams, daemon };
  }

  it('pauses for a 429 and its Retry-After, then delivers a hostile 45 KB event clipped and as literal text', async () => {
    const { teams, daemon } = await start(EVERYTHING_TO_TEAMS);
    // The throttled answer echoes the URL, as some proxies do: the sig must still never be stored or logged.
    const echo = JSON.stringify({
      error: { code: 'TooManyRequests', message: `Rate limit for ${teams.url}${HOOK_PATH}` },
    });
    teams.script({ status: 429, headers: { 'retry-after': '1' }, body: echo });
    const title = '[click](http://evil) <at>x</at> **bold**';
    const body = envelope('incident.created', { severity: 'high', title, host: 'h'.repeat(45_000) });
    expect((await postWebhook(daemon.url, body, { secret: SOURCE_SECRET })).status).toBe(200);

    const [delivered] = await waitFor(
      () => daemon.deliveries(),
      (rows) => rows[0]?.state === 'delivered',
      10_000,
    );
    const store = createSqliteStore({ path: daemon.dbPath });
    const history = await store.listAttempts(delivered?.id as string).finally(() => store.close());
    expect(history.map((attempt) => [attempt.outcome, attempt.statusCode])).toEqual([
      ['retry', 429],
      ['delivered', 202],
    ]);
    // Retry-After: 1 was honoured (random 0 would otherwise retry at once).
    expect((teams.requests[1]?.receivedAt ?? 0) - (teams.requests[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(teams.requests[1]?.body.length).toBeLessThanOrEqual(24_000);
    const card = cardOf(teams, 1);
    expect(card.body[0]?.items?.[0]?.text).toBe('🔴 \\[click\\]\\(http://evil\\) \\<at\\>x\\</at\\> \\*\\*bold\\*\\*');
    expect(card.body[1]?.facts?.find((fact) => fact.title === 'Host')?.value).toMatch(/^h+…$/);

    expect(history[0]?.detail).toContain('TooManyRequests');
    const recorded = JSON.stringify([history, await daemon.deliveries()]);
    for (const where of [recorded, daemon.rawLogs()]) expect(where).not.toContain(SIG);
  }, 30_000);

  it('dead-letters a deleted workflow (404) at once, saying so', async () => {
    const { teams, daemon } = await start(EVERYTHING_TO_TEAMS);
    teams.setDefault({ status: 404, body: JSON.stringify({ error: { code: 'WorkflowNotFound', message: 'gone' } }) });
    await postWebhook(daemon.url, envelope('agent.offline', { host: 'web-1' }), { secret: SOURCE_SECRET });
    const [dead] = await waitFor(
      () => daemon.deliveries(),
      (rows) => rows[0]?.state === 'dead',
      10_000,
    );
    expect(dead).toMatchObject({
      attempts: 1,
      lastError: expect.stringContaining('WorkflowNotFound: gone (no such workflow'),
    });
    expect(teams.requests).toHaveLength(1);
  }, 30_000);

  it('sends a digest as one card with the count, the key and the first 20 events', async () => {
    const clock = manualClock(Date.parse('2026-11-24T10:00:00Z'));
    const { teams, daemon } = await start(
      `
targets:
  soc-teams: { type: teams, webhook_url: "\${TEAMS_WEBHOOK_URL}" }
routes:
  - name: storm
    match: { event: "threat.*" }
    group: { by: ["{{ data.rule }}"], wait: 30s }
    to: [soc-teams]
`,
      { clock, digestSendMs: 20 },
    );
    for (let n = 0; n < 30; n += 1) {
      const body = envelope('threat.detected', { rule: 'brute-force', title: `Login burst ${n}`, host: 'vpn-1' });
      expect((await postWebhook(daemon.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
    }
    clock.advance(30_000);
    await teams.waitForRequests(1, 10_000);
    const card = cardOf(teams, 0);
    expect(card.body[0]?.items?.[0]?.text).toBe('📦 30 events grouped by storm: brute-force');
    expect(card.body[1]?.facts).toEqual([
      { title: 'Events', value: '30' },
      { title: 'Group', value: 'brute-force' },
    ]);
    expect(card.body[2]?.text?.split('\n')).toHaveLength(20);
    expect(card.body[3]?.text).toBe('_and 10 more_');
  }, 30_000);

  it('says on the next card how many events a throttle suppressed', async () => {
    const clock = manualClock(Date.parse('2026-11-24T10:00:00Z'));
    const { teams, daemon } = await start(
      `
targets:
  soc-teams:
    type: teams
    webhook_url: "\${TEAMS_WEBHOOK_URL}"
    throttle: { key: "{{ data.host }}", window: 10m }
routes:
  - { name: all, to: [soc-teams] }
`,
      { clock },
    );
    const post = (n: number) =>
      postWebhook(daemon.url, envelope('agent.offline', { host: 'web-1', n }), { secret: SOURCE_SECRET });
    for (let n = 0; n < 4; n += 1) await post(n);
    await teams.waitForRequests(1, 10_000);
    clock.advance(10 * 60_000);
    await post(4);
    await teams.waitForRequests(2, 10_000);
    const facts = cardOf(teams, 1).body[1]?.facts ?? [];
    expect(facts).toContainEqual({
      title: 'Throttled',
      value: '3 similar events were suppressed since the last message',
    });
    expect(cardOf(teams, 0).body[1]?.facts?.map((fact) => fact.title)).not.toContain('Throttled');
  }, 30_000);
});
