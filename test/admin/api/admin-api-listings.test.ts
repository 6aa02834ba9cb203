import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { TOO_DEEP } from '../../../src/templates/limit-depth.js';
import { makeIngestItem, T0 } from '../../store/make-ingest-item.js';
import { seedJournal, type Seeded } from './seed-journal.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function seeded(): Promise<{ api: AdminApiHarness; seed: Seeded }> {
  api = await startAdminApi({ rules });
  return { api, seed: await seedJournal(api.store) };
}
type Page = { items: { id: string; eventId?: string; target?: string; state?: string }[]; nextCursor: string | null };
async function get(path: string): Promise<Page> {
  const answer = await (api as AdminApiHarness).request(path, { key: READER.key });
  expect(answer.status, `${path}: ${answer.text}`).toBe(200);
  return answer.body as Page;
}
/** Every item of a listing, following `nextCursor`; the page sizes too. */
async function walk(path: string): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: Page = await get(cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`);
    ids.push(...page.items.map((item) => item.id));
    sizes.push(page.items.length);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { ids, sizes };
}

describe('admin API listings', () => {
  it('lists events newest first, without bodies, and pages through them with a cursor', async () => {
    const { seed } = await seeded();
    const first = await get('/api/v1/events?limit=3');
    expect(first.items[0]).toEqual({
      id: seed.events[7],
      source: 'edr',
      kind: 'agent.offline',
      severity: 'high',
      occurredAt: '2026-11-22T10:00:00Z',
      receivedAt: new Date(T0 + 7 * 60_000).toISOString(),
      bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      rulesVersion: 'rules-v1',
      matchedRoutes: ['critical-incidents', 'everything'],
      title: 'event 7',
    });
    const newest = await walk('/api/v1/events?limit=3');
    expect(newest).toEqual({ ids: [...seed.events].reverse(), sizes: [3, 3, 2] });
    const oldest = await walk('/api/v1/events?limit=4&order=oldest');
    expect(oldest).toEqual({ ids: seed.events, sizes: [4, 4] });
  });

  it('filters events by source, kind, time, and by the target and state of their deliveries', async () => {
    const { seed } = await seeded();
    const ids = async (query: string) => (await get(`/api/v1/events?order=oldest&${query}`)).items.map((e) => e.id);
    const e = seed.events;
    expect(await ids('source=edr')).toEqual([e[1], e[3], e[5], e[7]]);
    expect(await ids('kind=incident.created&source=monitor')).toEqual([e[0], e[2], e[4], e[6]]);
    expect(await ids('since=2026-11-22T10:02:00Z&until=2026-11-22T10:04:00Z')).toEqual([e[2], e[3]]);
    expect(await ids('state=dead')).toEqual([e[0], e[1], e[2]]);
    expect(await ids('state=dead&target=tickets')).toEqual([e[1]]);
    expect(await ids('target=soc-slack&kind=incident.created&state=pending')).toEqual([e[4], e[6]]);
    // Durations count back from the API clock (one hour after the first event).
    expect(await ids('since=53m')).toEqual([e[7]]);
    // Paging keeps the filters.
    expect((await walk('/api/v1/events?source=edr&limit=3')).ids).toEqual([e[7], e[5], e[3], e[1]]);
  });

  it('shows one event with its body as JSON and its deliveries', async () => {
    const { seed } = await seeded();
    const answer = await api?.request(`/api/v1/events/${seed.events[0]}`, { key: READER.key });
    expect(answer?.status).toBe(200);
    expect(answer?.body).toMatchObject({
      id: seed.events[0],
      kind: 'incident.created',
      body: { event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { n: 0, title: 'event 0' } },
      deliveries: [
        { id: seed.delivery(0, 'soc-slack'), target: 'soc-slack', state: 'dead', attempts: 1, lastError: 'HTTP 404' },
        { id: seed.delivery(0, 'tickets'), target: 'tickets', state: 'pending', attempts: 0 },
      ],
    });
    const missing = await api?.request('/api/v1/events/evt_nope', { key: READER.key });
    expect(missing?.status).toBe(404);
    expect(missing?.body).toEqual({ error: { code: 'not_found', message: 'no event evt_nope' } });
  });

  it('shows an event nested thousands of levels deep (a journal from before the depth limit) cut, not a 500', async () => {
    const { seed } = await seeded();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const made = makeIngestItem({
      receivedAt: T0 + 3_600_000,
      targets: [],
      body: `{"event":"threat.detected","timestamp":"2026-11-22T10:00:00Z","data":{"severity":${deep}}}`,
    });
    await api?.store.ingest([made]);
    const answer = await api?.request(`/api/v1/events/${made.event.id}`, { key: READER.key });
    expect(answer?.status).toBe(200);
    expect(answer?.text).toContain(TOO_DEEP);
    const again = await api?.request(`/api/v1/events/${seed.events[0]}`, { key: READER.key });
    expect(again?.status).toBe(200);
  });

  it('lists deliveries with filters and pages through all twelve, ties on creation time included', async () => {
    const { seed } = await seeded();
    const all = await walk('/api/v1/deliveries?limit=5&order=oldest');
    expect(all.sizes).toEqual([5, 5, 2]);
    expect(new Set(all.ids).size).toBe(12);
    expect(all.ids.slice(0, 3)).toEqual([
      seed.delivery(0, 'soc-slack'),
      seed.delivery(0, 'tickets'),
      seed.delivery(1, 'tickets'),
    ]);
    expect((await walk('/api/v1/deliveries?limit=5')).ids).toEqual([...all.ids].reverse());

    const targets = async (query: string) =>
      (await get(`/api/v1/deliveries?order=oldest&${query}`)).items.map((d) => d.id);
    expect(await targets('state=dead')).toEqual([
      seed.delivery(0, 'soc-slack'),
      seed.delivery(1, 'tickets'),
      seed.delivery(2, 'soc-slack'),
    ]);
    expect(await targets('kind=agent.offline&state=delivered')).toEqual([seed.delivery(3, 'tickets')]);
    expect(await targets(`event=${seed.events[6]}`)).toEqual([
      seed.delivery(6, 'soc-slack'),
      seed.delivery(6, 'tickets'),
    ]);
    expect(await targets('target=soc-slack&since=2026-11-22T10:03:00Z')).toEqual([
      seed.delivery(4, 'soc-slack'),
      seed.delivery(6, 'soc-slack'),
    ]);
  });

  it('lists dead letters, filtered and paged, and one delivery with its attempt history', async () => {
    const { seed } = await seeded();
    const dead = await walk('/api/v1/dead-letters?limit=2');
    expect(dead.ids).toEqual([
      seed.delivery(2, 'soc-slack'),
      seed.delivery(1, 'tickets'),
      seed.delivery(0, 'soc-slack'),
    ]);
    expect((await get('/api/v1/dead-letters?target=tickets')).items.map((d) => d.id)).toEqual([
      seed.delivery(1, 'tickets'),
    ]);

    const one = await api?.request(`/api/v1/deliveries/${seed.delivery(1, 'tickets')}`, { key: READER.key });
    expect(one?.body).toEqual({
      id: seed.delivery(1, 'tickets'),
      eventId: seed.events[1],
      target: 'tickets',
      state: 'dead',
      attempts: 1,
      nextAttemptAt: null,
      lastError: 'HTTP 404',
      heldBy: null,
      heldReason: null,
      correlationKey: null,
      waitingFor: null,
      waitingReason: null,
      captureMiss: null,
      createdAt: new Date(T0 + 60_000).toISOString(),
      updatedAt: new Date(T0 + 600_042).toISOString(),
      history: [
        {
          number: 1,
          startedAt: new Date(T0 + 600_000).toISOString(),
          durationMs: 42,
          outcome: 'dead',
          statusCode: 404,
          detail: 'HTTP 404 not found',
        },
      ],
    });
    expect((await api?.request('/api/v1/deliveries/dlv_999999', { key: READER.key }))?.status).toBe(404);
  });

  it('answers 400 to bad parameters and to cursors it did not give out, naming the problem', async () => {
    await seeded();
    const error = async (path: string) => {
      const answer = await api?.request(path, { key: READER.key });
      expect(answer?.status, path).toBe(400);
      return (answer?.body as { error: { code: string; message: string } }).error;
    };
    expect(await error('/api/v1/deliveries?tagret=tickets')).toEqual({
      code: 'invalid_filter',
      message:
        'unknown parameter "tagret"; known: limit, cursor, order, target, state, kind, event, heldBy, since, until',
    });
    expect((await error('/api/v1/deliveries?state=lost')).message).toBe(
      'state: must be one of pending, delivered, dead, skipped, silenced, muted, suppressed, grouped',
    );
    expect((await error('/api/v1/dead-letters?state=dead')).message).toContain('unknown parameter "state"');
    expect((await error('/api/v1/events?since=yesterday')).message).toContain('since: "yesterday" is not a date-time');
    expect((await error('/api/v1/events?limit=0')).message).toBe('limit: must be an integer from 1 to 500');
    expect((await error('/api/v1/events?limit=501')).code).toBe('invalid_filter');
    expect((await error('/api/v1/events?limit=2.5')).code).toBe('invalid_filter');
    expect((await error('/api/v1/events?order=random')).code).toBe('invalid_filter');
    expect((await error('/api/v1/events?target=a&target=b')).message).toBe('target: give it once');
    expect((await error('/api/v1/events?kind=')).message).toBe('kind: must be a non-empty string');
    expect(await error('/api/v1/events?cursor=garbage')).toEqual({
      code: 'invalid_cursor',
      message: 'cursor is not one this API gave out',
    });
    const cursor = (await get('/api/v1/events?limit=1')).nextCursor as string;
    expect((await error(`/api/v1/deliveries?cursor=${cursor}`)).message).toContain('another listing or order');
    expect((await error(`/api/v1/events?order=oldest&cursor=${cursor}`)).message).toContain('another listing or order');
  });

  it('answers an empty page with no cursor when nothing matches', async () => {
    await seeded();
    expect(await get('/api/v1/events?kind=nothing')).toEqual({ items: [], nextCursor: null, scanned: null });
    expect(await get('/api/v1/events?limit=8')).toMatchObject({ nextCursor: null });
  });
});
