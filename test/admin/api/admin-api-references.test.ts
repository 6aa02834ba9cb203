import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeIngestItem, T0 } from '../../store/make-ingest-item.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER, REPLAYER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** A delivered create for `key` on target `tickets` that captured `ticket`. */
async function remember(harness: AdminApiHarness, key: string, ticket: string, at: number): Promise<void> {
  await harness.store.ingest([{ ...makeIngestItem({ receivedAt: at, targets: ['tickets'] }), keys: [key] }]);
  const [claimed] = await harness.store.claimDue({ target: 'tickets', now: at + 1, limit: 1, leaseMs: 60_000 });
  if (claimed === undefined) throw new Error('nothing to claim');
  await harness.store.recordAttempts([
    {
      deliveryId: claimed.delivery.id,
      claimToken: claimed.claimToken,
      attempt: { startedAt: at + 2, durationMs: 5, outcome: 'delivered', statusCode: 201, detail: null },
      references: { merge: { ticket } },
      next: { state: 'delivered', nextAttemptAt: at + 7, lastError: null },
    },
  ]);
}

describe('admin API: references (issue 14)', () => {
  it('lists what lifecycle targets remember per key, newest first, filtered by target and key', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await remember(harness, 'incident:inc_1', 'SOC-1', T0);
    await remember(harness, 'incident:inc_2', 'SOC-2', T0 + 1_000);
    const all = await harness.request('/api/v1/references', { key: READER.key });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({
      items: [
        { target: 'tickets', key: 'incident:inc_2', values: { ticket: 'SOC-2' }, updatedAt: T0 + 1_007 },
        { target: 'tickets', key: 'incident:inc_1', values: { ticket: 'SOC-1' }, updatedAt: T0 + 7 },
      ],
    });
    const one = await harness.request('/api/v1/references?target=tickets&key=incident%3Ainc_1', { key: READER.key });
    expect((one.body as { items: unknown[] }).items).toHaveLength(1);
    const limited = await harness.request('/api/v1/references?limit=1', { key: READER.key });
    expect((limited.body as { items: { key: string }[] }).items.map((item) => item.key)).toEqual(['incident:inc_2']);
  });

  it('refuses bad parameters with 400, and callers without the read scope', async () => {
    const harness = (api = await startAdminApi({ rules }));
    for (const query of ['limit=0', 'limit=abc', 'limit=1001', 'key=', 'target=a&target=b', 'other=1']) {
      const answer = await harness.request(`/api/v1/references?${query}`, { key: READER.key });
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'invalid_filter' } });
    }
    expect((await harness.request('/api/v1/references')).status).toBe(401);
    expect((await harness.request('/api/v1/references', { key: REPLAYER.key })).status).toBe(403);
  });
});
