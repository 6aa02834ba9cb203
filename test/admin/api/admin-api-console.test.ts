import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeIngestItem, T0 } from '../../store/make-ingest-item.js';
import { seedJournal, type Seeded } from './seed-journal.js';
import { NOW, startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { OPERATOR, READER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function seeded(): Promise<{ a: AdminApiHarness; seed: Seeded }> {
  api = await startAdminApi({ rules, env: SECRETS });
  return { a: api, seed: await seedJournal(api.store) };
}
async function get(path: string): Promise<Record<string, unknown>> {
  const answer = await (api as AdminApiHarness).request(path, { key: READER.key });
  expect(answer.status, `${path}: ${answer.text}`).toBe(200);
  return answer.body as Record<string, unknown>;
}
const ids = (page: Record<string, unknown>) => (page.items as { id: string }[]).map((item) => item.id);

describe('admin API for the console (issue 13)', () => {
  it('answers the overview: events per minute, deliveries by state, target health and the rules', async () => {
    const { seed } = await seeded();
    const overview = await get('/api/v1/overview?hours=2');
    expect(overview.now).toBe(new Date(NOW).toISOString());
    expect(overview.rules).toEqual({
      version: rules.version,
      loadedAt: new Date(NOW - 60_000).toISOString(),
      lastReload: null,
    });
    const perMinute = overview.eventsPerMinute as { minute: string; kind: string; count: number }[];
    expect(perMinute).toHaveLength(8);
    expect(perMinute[0]).toEqual({
      minute: new Date(T0).toISOString(),
      kind: 'incident.created',
      severity: 'high',
      count: 1,
    });
    expect(overview.deliveriesByState).toEqual({
      pending: 8,
      delivered: 1,
      dead: 3,
      skipped: 0,
      silenced: 0,
      muted: 0,
      suppressed: 0,
      grouped: 0,
    });
    const targets = overview.targets as Record<string, unknown>[];
    expect(targets.find((t) => t.name === 'soc-slack')).toMatchObject({
      type: 'slack',
      pending: 2,
      dead: 2,
      retrying: 0,
      lastError: 'HTTP 404',
      lastErrorAt: new Date(T0 + 600_042).toISOString(),
      circuit: null,
    });
    expect(seed.events).toHaveLength(8);
    for (const hours of ['0', '49', 'x', '1.5']) {
      expect((await api?.request(`/api/v1/overview?hours=${hours}`, { key: READER.key }))?.status, hours).toBe(400);
    }
  });

  it('shows a failed reload with its problems in the overview', async () => {
    api = await startAdminApi({
      rules,
      reloadRules: () => [
        { severity: 'error', code: 'bad', message: 'routes.0: broken', file: '/r.yaml', line: 3, column: 5 },
      ],
    });
    expect((await api.request('/api/v1/rules/reload', { key: OPERATOR.key, method: 'POST' })).status).toBe(422);
    const overview = await get('/api/v1/overview');
    expect(overview.rules).toMatchObject({
      lastReload: {
        ok: false,
        at: new Date(NOW).toISOString(),
        problems: [
          { severity: 'error', code: 'bad', message: 'routes.0: broken', file: '/r.yaml', line: 3, column: 5 },
        ],
      },
    });
  });

  it('filters events by severity and by text in the title, and lists each title', async () => {
    const { a, seed } = await seeded();
    await a.store.ingest([
      (() => {
        const made = makeIngestItem({ receivedAt: T0 + 30_000, severity: 'low' });
        return { ...made, event: { ...made.event, title: 'Disk 100% FULL on db-1' } };
      })(),
    ]);
    const low = await get('/api/v1/events?severity=low');
    expect(ids(low)).toHaveLength(1);
    expect((low.items as { title: string }[])[0]?.title).toBe('Disk 100% FULL on db-1');
    expect(ids(await get('/api/v1/events?q=100%25%20full'))).toHaveLength(1);
    expect(ids(await get('/api/v1/events?q=EVENT%203'))).toEqual([seed.events[3]]);
    expect(ids(await get('/api/v1/events?q=event&kind=agent.offline&order=oldest'))).toEqual(
      [1, 3, 5, 7].map((i) => seed.events[i]),
    );
    const nothing = await get('/api/v1/events?q=nothing-like-this');
    expect([nothing.nextCursor, nothing.scanned]).toEqual([null, null]);
    expect((await api?.request(`/api/v1/events?q=${'x'.repeat(201)}`, { key: READER.key }))?.status).toBe(400);
  });

  it('shows an event with its title, routing explanation, and each delivery with attempts and references', async () => {
    const { seed } = await seeded();
    const event = await get(`/api/v1/events/${seed.events[0]}`);
    expect(event.title).toBe('event 0');
    expect(event.explanation).toMatchObject({
      rules: { version: rules.version },
      event: 'incident.created',
      // The seeded body has no severity: the rules in force send it to the fallback.
      targets: ['oncall-mail'],
      rulesVersionNow: rules.version,
      rulesVersionAtIngest: 'rules-v1',
      sameRules: false,
    });
    const deliveries = event.deliveries as { target: string; history: unknown[]; references: unknown[] }[];
    const slack = deliveries.find((d) => d.target === 'soc-slack');
    expect(slack?.history).toEqual([
      {
        number: 1,
        startedAt: new Date(T0 + 600_000).toISOString(),
        durationMs: 42,
        outcome: 'dead',
        statusCode: 404,
        detail: 'HTTP 404 not found',
      },
    ]);
    expect(slack?.references).toEqual([]);
    const text = JSON.stringify(event);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it('filters dead letters by text in the last error', async () => {
    await seeded();
    expect(ids(await get('/api/v1/dead-letters?reason=http%20404'))).toHaveLength(3);
    expect(ids(await get('/api/v1/dead-letters?reason=503'))).toHaveLength(0);
  });

  it('answers changes after a cursor: new events and changed deliveries once 2 s old, bounded, then nothing', async () => {
    const { a } = await seeded();
    const start = await get('/api/v1/changes');
    expect(start).toMatchObject({ events: [], deliveries: [] });
    const cursor = String(start.cursor);
    expect((await get(`/api/v1/changes?after=${cursor}`)).events).toEqual([]);
    const item = makeIngestItem({ receivedAt: NOW, targets: ['tickets'] });
    await a.store.ingest([item]);
    // Changes show once CHANGES_LAG_MS old, so one committed late is not passed by the cursor.
    a.clock.advance(2_000);
    expect(await get(`/api/v1/changes?after=${cursor}`)).toMatchObject({ events: [], deliveries: [] });
    a.clock.advance(1);
    const changed = await get(`/api/v1/changes?after=${cursor}`);
    expect((changed.events as { id: string }[]).map((e) => e.id)).toEqual([item.event.id]);
    expect((changed.deliveries as { eventId: string; state: string }[]).map((d) => [d.eventId, d.state])).toEqual([
      [item.event.id, 'pending'],
    ]);
    expect(changed.more).toBe(false);
    const after = await get(`/api/v1/changes?after=${String(changed.cursor)}`);
    expect(after).toMatchObject({ events: [], deliveries: [], more: false });
    // A burst of more than one answer holds: `more` says so, and the next poll continues from the cursor.
    const burst = Array.from({ length: 101 }, () => makeIngestItem({ receivedAt: a.clock.now(), targets: [] }));
    await a.store.ingest(burst);
    a.clock.advance(2_001);
    const full = await get(`/api/v1/changes?after=${String(after.cursor)}`);
    expect([(full.events as unknown[]).length, full.more]).toEqual([100, true]);
    const rest = await get(`/api/v1/changes?after=${String(full.cursor)}`);
    const newest = burst.map((item) => item.event.id).sort()[100]; // ids, not the order made, sort the events
    expect([(rest.events as { id: string }[]).map((e) => e.id), rest.more]).toEqual([[newest], false]);
    expect((await a.request('/api/v1/changes?after=nonsense', { key: READER.key })).status).toBe(400);
  });

  it('checks candidate rules: problems with line and column, routing of an event, secrets never shown', async () => {
    await seeded();
    const check = (body: unknown) => (api as AdminApiHarness).request('/api/v1/rules/check', { key: READER.key, body });
    const broken = await check({ rules: 'targets:\n  a: { type: slack }\nroutes: []\n' });
    expect(broken.status).toBe(200);
    expect(broken.body).toMatchObject({ valid: false, version: null, routing: null });
    const problems = (broken.body as { problems: { line: number; column: number; message: string }[] }).problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({ line: 2, column: expect.any(Number) });

    const candidate = `${TEST_RULES.replace('to: [tickets]\n    stop: true', 'to: [oncall-mail]\n    stop: true')}`;
    const event = { event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { severity: 'low' } };
    const valid = await check({ rules: candidate, event });
    expect(valid.status).toBe(200);
    expect(valid.body).toMatchObject({ valid: true, version: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect((valid.body as { routing: { targets: string[] } }).routing.targets).toEqual(['oncall-mail']);
    // A secret put where an error message might quote it: the answer never holds it.
    const leaky = await check({
      rules: `targets:\n  x: { type: slack, webhook_url: "\${TICKETS_HEADER}" }\nroutes: [{ name: r, match: { event: "\${TICKETS_TOKEN}" }, to: [x] }]\n`,
    });
    // A template that transforms a variable's value: masking exact copies would not catch it, so values are
    // never put in candidate rules at all; a variable the daemon lacks is still an error, as in `check`.
    const transforming = `targets:\n  x: { type: http, url: "\${TICKETS_URL}", key: "{{ '\${TICKETS_TOKEN}' | upcase }}-{{ '\${TICKETS_HEADER}' | slice: 1, 40 }}" }\nroutes: [{ name: r, match: { event: "agent.*" }, to: [x] }]\n`;
    const transformed = await check({ rules: transforming, event });
    expect(transformed.body).toMatchObject({ valid: true });
    expect(transformed.text).toContain('${TICKETS_TOKEN}'.toUpperCase());
    const unknown = await check({ rules: transforming.replace('TICKETS_URL', 'NOT_SET_ANYWHERE') });
    expect(unknown.body).toMatchObject({ valid: false });
    expect(unknown.text).toContain('NOT_SET_ANYWHERE is not set');
    for (const answer of [broken, valid, leaky, transformed, unknown]) {
      for (const secret of Object.values(SECRETS)) {
        for (const form of [secret, secret.toUpperCase(), secret.slice(1, 40)]) expect(answer.text).not.toContain(form);
      }
    }
    // The rules in force did not change.
    expect((await get('/api/v1/rules')).version).toBe(rules.version);
    expect((await check({ rules: 42 })).status).toBe(400);
    expect((await check({ rules: 'routes: []', event: { event: 1 } })).status).toBe(400);
  });

  it('replays a selection of ids, after a dry run that counts them', async () => {
    const { a, seed } = await seeded();
    const selection = [seed.delivery(0, 'soc-slack'), seed.delivery(1, 'tickets'), seed.delivery(4, 'tickets')];
    const post = (body: unknown) => a.request('/api/v1/replay', { key: OPERATOR.key, body });
    const dry = await post({ ids: selection, dryRun: true });
    expect(dry.body).toMatchObject({ dryRun: true, count: 2, ids: selection.slice(0, 2) });
    expect(await a.store.getDelivery(selection[0] ?? '')).toMatchObject({ state: 'dead' });
    const done = await post({ ids: selection });
    expect(done.body).toMatchObject({ dryRun: false, count: 2 });
    expect(await a.store.getDelivery(selection[0] ?? '')).toMatchObject({ state: 'pending' });
    expect(await a.store.getDelivery(seed.delivery(2, 'soc-slack'))).toMatchObject({ state: 'dead' });
    for (const body of [{ ids: [] }, { ids: 'dlv_1' }, { ids: ['dlv_1'], target: 'x' }, { ids: [1] }]) {
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});
