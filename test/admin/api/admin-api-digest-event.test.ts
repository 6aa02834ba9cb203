import { afterEach, describe, expect, it } from 'vitest';
import { buildDigestEvent } from '../../../src/noise/build-digest-event.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeIngestItem, T0 } from '../../store/make-ingest-item.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('a digest event in the admin API', () => {
  it('is listed with its title, and its page says what it collected instead of "no route matched"', async () => {
    const a = (api = await startAdminApi({ rules, env: SECRETS }));
    const group = { route: 'serious-incidents', waitMs: 30_000, intervalMs: 300_000, maxEvents: 10 };
    const items = [0, 1].map((n) => ({
      ...makeIngestItem({ targets: ['soc-slack'], receivedAt: T0 + n }),
      groups: [{ ...group, key: 'serious-incidents|db-1', digestId: 'dig_1' }],
    }));
    await a.store.ingest(items);
    const deliveryId = await a.store.sendDigest('dig_1', T0 + 40_000, (digest, events) =>
      buildDigestEvent(digest, events, { id: 'evt_digest', now: T0 + 40_000, rulesVersion: rules.version }),
    );
    expect(deliveryId).toMatch(/^dlv_/);

    const listed = await a.request('/api/v1/events?kind=switchyard.digest', { key: READER.key });
    expect((listed.body as { items: { title: string | null }[] }).items.map((item) => item.title)).toEqual([
      '2 events grouped by serious-incidents: db-1',
    ]);
    const found = await a.request('/api/v1/events?q=grouped%20by', { key: READER.key });
    expect((found.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual(['evt_digest']);

    const page = (await a.request('/api/v1/events/evt_digest', { key: READER.key })).body as Record<string, unknown>;
    expect(page.matchedRoutes).toEqual(['serious-incidents']);
    expect(page.explanation).toBeNull();
    expect(page.digest).toEqual({
      route: 'serious-incidents',
      target: 'soc-slack',
      digestId: 'dig_1',
      count: 2,
      eventIds: items.map((item) => item.event.id),
    });
  });

  it('is no digest for any other event', async () => {
    const a = (api = await startAdminApi({ rules, env: SECRETS }));
    const item = makeIngestItem({ targets: ['soc-slack'] });
    await a.store.ingest([item]);
    const page = (await a.request(`/api/v1/events/${item.event.id}`, { key: READER.key })).body as Record<
      string,
      unknown
    >;
    expect(page.digest).toBeNull();
    expect(page.explanation).not.toBeNull();
  });
});
