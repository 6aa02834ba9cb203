import { afterEach, describe, expect, it } from 'vitest';
import { deepEvent } from '../../helpers/deep-event.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';
import { seedJournal } from './seed-journal.js';
import { NOW, startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { OPERATOR, READER, REPLAYER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const loader = rulesLoader();
const rules = loader.compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function seeded(options: Partial<Parameters<typeof startAdminApi>[0]> = {}) {
  api = await startAdminApi({ rules, ...options });
  return { api, seed: await seedJournal(api.store) };
}
const post = (path: string, body?: unknown, key = REPLAYER.key) =>
  (api as AdminApiHarness).request(path, { key, method: 'POST', body });

describe('admin API replay', () => {
  it('re-queues one dead delivery by id: due now, fresh budget, history kept, and wakes the engine', async () => {
    const { seed, api: a } = await seeded();
    const { store } = a;
    const id = seed.delivery(0, 'soc-slack');
    const answer = await post(`/api/v1/deliveries/${id}/replay`);
    expect(answer.status).toBe(200);
    // `attempts` still agrees with the history, which keeps the dead attempt.
    expect(answer.body).toMatchObject({
      id,
      state: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(NOW).toISOString(),
    });
    expect(await store.getDelivery(id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: NOW });
    expect(await store.listAttempts(id)).toHaveLength(1);
    expect(a.wakes()).toBe(1);
    expect(a.logs()).toContain('"key":"replay-bot"');
    expect(a.logs()).toContain(`"delivery":"${id}"`);
  });

  it('answers 409 for a pending delivery and 404 for an unknown one, changing nothing', async () => {
    const { seed, api: a } = await seeded();
    const pending = seed.delivery(4, 'tickets');
    const busy = await post(`/api/v1/deliveries/${pending}/replay`);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({
      error: { code: 'already_pending', message: `delivery ${pending} is pending: it is already queued` },
    });
    expect((await post('/api/v1/deliveries/dlv_424242/replay')).status).toBe(404);
    expect(a.wakes()).toBe(0);
  });

  it('re-queues dead deliveries by filter (dead unless told otherwise) and reports the ids', async () => {
    const { seed, api: a } = await seeded();
    const answer = await post('/api/v1/replay', { kind: 'incident.created' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      dryRun: false,
      count: 2,
      ids: [seed.delivery(0, 'soc-slack'), seed.delivery(2, 'soc-slack')],
      skippedDelivered: 0,
    });
    expect((await a.store.findDeliveries({ state: 'dead' })).map((d) => d.id)).toEqual([seed.delivery(1, 'tickets')]);
    // Delivered ones only with includeDelivered: asked for by state alone, they are counted and left alone.
    const filter = { state: 'delivered', target: 'tickets', since: '2026-11-22T10:00:00Z' };
    const left = await post('/api/v1/replay', filter);
    expect(left.body).toEqual({
      dryRun: false,
      count: 0,
      ids: [],
      skippedDelivered: 1,
      message:
        `left 1 delivered delivery alone (${seed.delivery(3, 'tickets')}): the receiver already has it; ` +
        'send "includeDelivered": true to send it again, with a new Idempotency-Key',
    });
    expect(await a.store.getDelivery(seed.delivery(3, 'tickets'))).toMatchObject({ state: 'delivered' });
    const delivered = await post('/api/v1/replay', { ...filter, includeDelivered: true });
    expect(delivered.body).toMatchObject({ count: 1, ids: [seed.delivery(3, 'tickets')], skippedDelivered: 0 });
    expect(await a.store.getDelivery(seed.delivery(3, 'tickets'))).toMatchObject({ state: 'pending' });
    expect(a.wakes()).toBe(2);
  });

  it('re-queues one delivered delivery only with {"includeDelivered": true}; 409 and nothing changed without', async () => {
    const { seed, api: a } = await seeded();
    const id = seed.delivery(3, 'tickets');
    const before = await a.store.getDelivery(id);
    const refused = await post(`/api/v1/deliveries/${id}/replay`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: {
        code: 'delivered',
        message:
          `left 1 delivered delivery alone (${id}): the receiver already has it; ` +
          'send {"includeDelivered": true} to send it again, with a new Idempotency-Key',
      },
    });
    const wrong = await post(`/api/v1/deliveries/${id}/replay`, { includeDelivered: 'yes' });
    expect(wrong.status).toBe(400);
    expect((await post(`/api/v1/deliveries/${id}/replay`, { include: true })).status).toBe(400);
    expect(await a.store.getDelivery(id)).toEqual(before);
    expect(a.wakes()).toBe(0);

    const resent = await post(`/api/v1/deliveries/${id}/replay`, { includeDelivered: true });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id, state: 'pending', attempts: (await a.store.listAttempts(id)).length });
    expect(a.wakes()).toBe(1);
  });

  it('never re-queues a held delivery: 409 by id, left out of a filter even with includeDelivered', async () => {
    const { api: a } = await seeded();
    const item = makeIngestItem({ receivedAt: NOW - 1_000, targets: ['soc-slack'] });
    await a.store.ingest([{ ...item, holds: [{ state: 'silenced', by: 'sil_1' }] }]);
    const [held] = await a.store.listDeliveries(item.event.id);
    const id = held?.id as string;
    const refused = await post(`/api/v1/deliveries/${id}/replay`, { includeDelivered: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: { code: 'held', message: `delivery ${id} is silenced by sil_1: held deliveries are never replayed` },
    });
    const filter = { event: item.event.id, includeDelivered: true };
    expect((await post('/api/v1/replay', { ...filter, dryRun: true })).body).toMatchObject({ count: 0, ids: [] });
    expect((await post('/api/v1/replay', filter)).body).toMatchObject({ count: 0, ids: [] });
    expect((await post('/api/v1/replay', { ids: [id], includeDelivered: true })).body).toMatchObject({ count: 0 });
    expect(await a.store.getDelivery(id)).toEqual(held);
    expect(a.wakes()).toBe(0);
  });

  it('lists what a dry run would re-queue and changes nothing', async () => {
    const { seed, api: a } = await seeded();
    const answer = await post('/api/v1/replay', { target: 'soc-slack', dryRun: true });
    expect(answer.body).toEqual({
      dryRun: true,
      count: 2,
      ids: [seed.delivery(0, 'soc-slack'), seed.delivery(2, 'soc-slack')],
      skippedDelivered: 0,
    });
    const delivered = await post('/api/v1/replay', { target: 'tickets', state: 'delivered', dryRun: true });
    expect(delivered.body).toMatchObject({ dryRun: true, count: 0, skippedDelivered: 1 });
    expect((delivered.body as { message: string }).message).toContain('send "includeDelivered": true');
    // By the text of the last error, as the dead-letters listing filters (the console's "Replay all matching").
    const byReason = await post('/api/v1/replay', { reason: 'http 404', dryRun: true });
    expect(byReason.body).toMatchObject({ dryRun: true, count: 3 });
    expect((await post('/api/v1/replay', { reason: 'timed out', dryRun: true })).body).toMatchObject({ count: 0 });
    expect(await a.store.findDeliveries({ state: 'dead' })).toHaveLength(3);
    expect(a.wakes()).toBe(0);
  });

  it('refuses a replay without a filter, with an unknown field, for pending ones, or not as JSON', async () => {
    const { api: a } = await seeded();
    const refused = async (body: unknown) => {
      const answer = await post('/api/v1/replay', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      return (answer.body as { error: { code: string; message: string } }).error;
    };
    expect((await refused({})).message).toContain('at least one filter');
    expect((await refused(undefined)).message).toContain('at least one filter');
    expect((await refused({ tagret: 'tickets' })).message).toContain('unknown field "tagret"');
    expect((await refused({ state: 'pending' })).message).toBe('state: pending deliveries are already queued');
    expect((await refused({ state: 'grouped', includeDelivered: true })).message).toBe(
      'state: grouped deliveries are held by noise control on purpose and never replayed',
    );
    expect((await refused({ target: 7 })).message).toBe('target: must be a non-empty string');
    expect((await refused({ limit: -1 })).message).toBe('limit: must be a positive integer');
    expect((await refused({ target: 'tickets', dryRun: 'yes' })).message).toBe('dryRun: must be true or false');
    expect((await refused({ target: 'tickets', includeDelivered: 1 })).message).toBe(
      'includeDelivered: must be true or false',
    );
    expect((await refused([1, 2])).message).toContain('JSON object');
    const broken = await a.request('/api/v1/replay', {
      key: REPLAYER.key,
      body: '{"target":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.body).toEqual({ error: { code: 'invalid_json', message: 'request body is not valid JSON' } });
    const text = await a.request('/api/v1/replay', {
      key: REPLAYER.key,
      body: 'target=tickets',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(415);
    expect(await a.store.findDeliveries({ state: 'dead' })).toHaveLength(3);
  });
});

describe('admin API rules and targets', () => {
  it('reloads the rules with the replay scope and answers 422 with the problems when the new file is invalid', async () => {
    const next = loader.compile(`${TEST_RULES}\n# changed\n`, SECRETS);
    const invalid = loader.load(`${TEST_RULES}\n# changed\n`, {});
    let valid = true;
    const { api: a } = await seeded({ reloadRules: () => (valid ? next : invalid.ok ? [] : invalid.problems) });
    const ok = await post('/api/v1/rules/reload');
    expect(ok.body).toEqual({ reloaded: true, previousVersion: rules.version, version: next.version });
    expect(((await a.request('/api/v1/rules', { key: READER.key })).body as { version: string }).version).toBe(
      next.version,
    );
    valid = false;
    const bad = await post('/api/v1/rules/reload');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: { code: 'rules_invalid' } });
    expect((bad.body as { error: { message: string } }).error.message).toContain(`version ${next.version}`);
    expect(invalid.ok).toBe(false);
    const problems = invalid.ok ? [] : invalid.problems;
    expect(problems.length).toBeGreaterThan(0);
    expect((bad.body as { error: { problems: unknown } }).error.problems).toEqual(
      problems.map((p) => ({
        severity: p.severity,
        code: p.code,
        message: p.message,
        file: p.file,
        line: p.line,
        column: p.column,
      })),
    );
  });

  it('reports each target with journal counts, attempts in flight and awaiting their record, circuit, journal-only targets too', async () => {
    const { api: a } = await seeded({
      engineStatus: () => [
        { target: 'soc-slack', inFlight: 1, awaitingRecord: 0, circuit: 'open', nextProbeAt: NOW + 30_000 },
        { target: 'tickets', inFlight: 0, awaitingRecord: 3, circuit: 'closed', pausedUntil: NOW + 5_000 },
      ],
    });
    // A target the rules no longer define, with a delivery still in the journal.
    await a.store.ingest([makeIngestItem({ targets: ['retired'] })]);
    const answer = await a.request('/api/v1/targets', { key: READER.key });
    const idle = { nextProbeAt: null, pausedUntil: null };
    expect(answer.body).toEqual({
      items: [
        {
          name: 'oncall-mail',
          type: 'email',
          inRules: true,
          pending: 0,
          dead: 0,
          inFlight: 0,
          awaitingRecord: 0,
          circuit: null,
          ...idle,
        },
        {
          name: 'retired',
          type: null,
          inRules: false,
          pending: 1,
          dead: 0,
          inFlight: 0,
          awaitingRecord: 0,
          circuit: null,
          ...idle,
        },
        {
          name: 'soc-slack',
          type: 'slack',
          inRules: true,
          pending: 2,
          dead: 2,
          inFlight: 1,
          awaitingRecord: 0,
          circuit: 'open',
          nextProbeAt: new Date(NOW + 30_000).toISOString(),
          pausedUntil: null,
        },
        {
          name: 'tickets',
          type: 'http',
          inRules: true,
          pending: 6,
          dead: 1,
          inFlight: 0,
          awaitingRecord: 3,
          circuit: 'closed',
          nextProbeAt: null,
          pausedUntil: new Date(NOW + 5_000).toISOString(),
        },
      ],
    });
  });
});

describe('admin API deliveries of a held-back target', () => {
  it('shows a pending delivery due when the open circuit lets the next probe through, not a time already past', async () => {
    const probeAt = NOW + 30_000;
    const { api: a } = await seeded({
      engineStatus: () => [
        { target: 'soc-slack', inFlight: 0, awaitingRecord: 0, circuit: 'open', nextProbeAt: probeAt },
      ],
    });
    const pending = await a.store.findDeliveries({ target: 'soc-slack', state: 'pending' });
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((d) => d.nextAttemptAt < probeAt)).toBe(true);
    const listed = await a.request('/api/v1/deliveries?target=soc-slack&state=pending', { key: READER.key });
    const items = (listed.body as { items: { nextAttemptAt: string }[] }).items;
    expect(items.map((item) => item.nextAttemptAt)).toEqual(pending.map(() => new Date(probeAt).toISOString()));
    const one = await a.request(`/api/v1/deliveries/${pending[0]?.id}`, { key: READER.key });
    expect(one.body).toMatchObject({ nextAttemptAt: new Date(probeAt).toISOString() });
    // Other targets' due times are as stored.
    const tickets = await a.store.findDeliveries({ target: 'tickets', state: 'pending', limit: 1 });
    const other = await a.request(`/api/v1/deliveries/${tickets[0]?.id}`, { key: READER.key });
    expect(other.body).toMatchObject({ nextAttemptAt: new Date(tickets[0]?.nextAttemptAt ?? 0).toISOString() });
  });
});

describe('admin API route tester', () => {
  it('explains how the rules in force route an envelope, storing nothing', async () => {
    const { api: a } = await seeded();
    const before = await a.store.counts();
    const answer = await a.request('/api/v1/route-test', {
      key: READER.key,
      body: { event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { hostname: 'db-1' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      rules: { version: rules.version },
      event: 'agent.offline',
      matchedRoutes: ['agents'],
      targets: ['tickets'],
      usedFallback: false,
      stoppedBy: 'agents',
      routes: [
        { route: 'serious-incidents', outcome: 'not-matched', failed: expect.stringContaining('agent.offline') },
        { route: 'agents', outcome: 'matched', to: ['tickets'], stop: true },
      ],
    });
    const fallback = await a.request('/api/v1/route-test', {
      key: OPERATOR.key,
      body: { event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { severity: 'low' } },
    });
    expect(fallback.body).toMatchObject({ targets: ['oncall-mail'], usedFallback: true });
    expect(await a.store.counts()).toEqual(before);
  });

  it('answers 400 to an invalid envelope and 415 to a body that is not JSON', async () => {
    const { api: a } = await seeded();
    const invalid = await a.request('/api/v1/route-test', { key: READER.key, body: { event: 'x', data: {} } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: { code: 'invalid_envelope' } });
    const text = await a.request('/api/v1/route-test', {
      key: READER.key,
      body: 'event=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect((await a.request('/api/v1/route-test', { key: REPLAYER.key, body: {} })).status).toBe(403);
  });

  it('answers 400 event_too_deep to a deeply nested event, never 500, and keeps answering', async () => {
    const { api: a } = await seeded();
    const deep = await a.request('/api/v1/route-test', {
      key: READER.key,
      body: deepEvent(5_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ error: { code: 'event_too_deep' } });
    const ok = await a.request('/api/v1/route-test', {
      key: READER.key,
      body: { event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { severity: 'low' } },
    });
    expect(ok.status).toBe(200);
  });
});
