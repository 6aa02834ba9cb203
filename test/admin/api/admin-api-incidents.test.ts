import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { incidentItem } from '../../store/incident-store-contract.js';
import { T0 } from '../../store/make-ingest-item.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER, REPLAYER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

type Page = { items: { key: string; source: string; state: string }[]; nextCursor: string | null };

async function seed(harness: AdminApiHarness): Promise<void> {
  await harness.store.ingest([
    incidentItem(0, 'incident.created', 'incident:inc_1', { targets: ['tickets'], title: 'Ransomware on fs-02' }),
    incidentItem(1, 'agent.offline', 'agent:ag_7', { targets: [], facts: { severity: 'low', host: 'db-1' } }),
    incidentItem(2, 'incident.created', 'incident:inc_2', { targets: ['tickets'], facts: { severity: 'critical' } }),
    incidentItem(3, 'incident.resolved', 'incident:inc_2', { targets: ['tickets'], facts: { severity: null } }),
    incidentItem(4, 'incident.created', 'incident:inc_2', { source: 'other', targets: [] }),
  ]);
  const claims = await harness.store.claimDue({ target: 'tickets', now: T0 + 5_000, limit: 10, leaseMs: 60_000 });
  await harness.store.recordAttempts(
    claims.map((c) => ({
      deliveryId: c.delivery.id,
      claimToken: c.claimToken,
      attempt: { startedAt: T0 + 5_000, durationMs: 5, outcome: 'delivered', statusCode: 201, detail: null },
      next: { state: 'delivered', nextAttemptAt: T0 + 5_005, lastError: null },
    })),
  );
}

describe('admin API: incidents', () => {
  it('lists incidents, newest activity first, filtered, in pages', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await seed(harness);
    const keys = async (query: string) => {
      const answer = await harness.request(`/api/v1/incidents${query}`, { key: READER.key });
      expect(answer.status, answer.text).toBe(200);
      return (answer.body as Page).items.map((item) => `${item.source}/${item.key}`);
    };
    expect(await keys('')).toEqual([
      'other/incident:inc_2',
      'monitor/incident:inc_2',
      'monitor/agent:ag_7',
      'monitor/incident:inc_1',
    ]);
    expect(await keys('?state=resolved')).toEqual(['monitor/incident:inc_2']);
    expect(await keys('?severity=low')).toEqual(['monitor/agent:ag_7']);
    expect(await keys('?host=db-1')).toEqual(['monitor/agent:ag_7']);
    expect(await keys('?target=tickets')).toEqual(['monitor/incident:inc_2', 'monitor/incident:inc_1']);
    expect(await keys('?q=ransomware')).toEqual(['monitor/incident:inc_1']);
    expect(await keys('?source=other')).toEqual(['other/incident:inc_2']);

    const first = await harness.request('/api/v1/incidents?limit=3', { key: READER.key });
    const page = first.body as Page;
    expect(page.items).toHaveLength(3);
    expect(page.nextCursor).not.toBeNull();
    const rest = await harness.request(`/api/v1/incidents?limit=3&cursor=${page.nextCursor ?? ''}`, {
      key: READER.key,
    });
    expect(rest.body).toMatchObject({ items: [{ key: 'incident:inc_1' }], nextCursor: null });
  });

  it('shows one incident with what each target was sent and its events and deliveries in order', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await seed(harness);
    const answer = await harness.request('/api/v1/incidents/incident%3Ainc_2?source=monitor', { key: READER.key });
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body as { events: { id: string; kind: string }[]; deliveries: { eventId: string }[] };
    expect(body).toMatchObject({
      incident: {
        source: 'monitor',
        key: 'incident:inc_2',
        state: 'resolved',
        severityHighest: 'critical',
        severityCurrent: 'critical',
        events: 2,
        firstAt: new Date(T0 + 2_000).toISOString(),
        resolvedAt: new Date(T0 + 3_000).toISOString(),
      },
      targets: [{ target: 'tickets', created: 1, updated: 0, resolved: 1, lastDelivery: { state: 'delivered' } }],
      references: [],
    });
    expect(body.events.map((e) => e.kind)).toEqual(['incident.created', 'incident.resolved']);
    expect(body.deliveries.map((d) => d.eventId)).toEqual(body.events.map((e) => e.id));
  });

  it('answers 409 for a key several sources share unless one is named, 404 for an unknown one', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await seed(harness);
    const shared = await harness.request('/api/v1/incidents/incident%3Ainc_2', { key: READER.key });
    expect(shared.status).toBe(409);
    expect(shared.body).toMatchObject({ error: { code: 'ambiguous_incident' } });
    const one = await harness.request('/api/v1/incidents/agent%3Aag_7', { key: READER.key });
    expect(one.body).toMatchObject({ incident: { key: 'agent:ag_7', host: 'db-1', state: 'open' } });
    const missing = await harness.request('/api/v1/incidents/incident%3Anope', { key: READER.key });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found' } });
  });

  it('refuses bad parameters with 400, and callers without the read scope', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await seed(harness);
    for (const query of ['limit=0', 'limit=501', 'state=closed', 'host=', 'target=a&target=b', 'text=x']) {
      const answer = await harness.request(`/api/v1/incidents?${query}`, { key: READER.key });
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'invalid_filter' } });
    }
    const cursor = await harness.request('/api/v1/incidents?cursor=abc', { key: READER.key });
    expect(cursor.body).toMatchObject({ error: { code: 'invalid_cursor' } });
    expect((await harness.request('/api/v1/incidents/incident%3Ainc_1?other=1', { key: READER.key })).status).toBe(400);
    expect((await harness.request('/api/v1/incidents')).status).toBe(401);
    expect((await harness.request('/api/v1/incidents', { key: REPLAYER.key })).status).toBe(403);
    expect((await harness.request('/api/v1/incidents/incident%3Ainc_1', { key: REPLAYER.key })).status).toBe(403);
  });
});
