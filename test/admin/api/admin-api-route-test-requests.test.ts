import { afterEach, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { T0, makeIngestItem } from '../../store/make-ingest-item.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER } from './test-keys.js';

const RULES = `targets:
  tickets:
    type: http
    requests:
      create: { url: https://tickets.example/issues, capture: { ticket: body.key } }
      update: { url: 'https://tickets.example/issues/{{ ref.ticket }}/comments' }
  chat: { type: slack, webhook_url: https://hooks.slack.example/y }
routes:
  - { name: all, match: { event: incident.* }, to: [tickets, chat] }
fallback: []
`;
const loader = rulesLoader();
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

it('route-test says which request each lifecycle delivery would use, from the key references in the journal', async () => {
  api = await startAdminApi({ rules: loader.compile(RULES) });
  const { store } = api;
  await store.ingest([{ ...makeIngestItem({ targets: ['tickets'] }), keys: ['incident:inc_1'] }]);
  const [created] = await store.claimDue({ target: 'tickets', now: T0 + 10, limit: 1, leaseMs: 60_000 });
  if (created === undefined) throw new Error('nothing claimed');
  await store.recordAttempts([
    {
      deliveryId: created.delivery.id,
      claimToken: created.claimToken,
      attempt: { startedAt: T0 + 20, durationMs: 1, outcome: 'delivered', statusCode: 201, detail: 'HTTP 201' },
      references: { merge: { ticket: 'SOC-77' } },
      next: { state: 'delivered', nextAttemptAt: T0 + 20, lastError: null },
    },
  ]);
  const ask = (kind: string, incident: string) =>
    (api as AdminApiHarness).request('/api/v1/route-test', {
      key: READER.key,
      body: { event: kind, timestamp: '2026-11-22T10:00:00Z', data: { incident_id: incident } },
    });

  const started = await ask('incident.updated', 'inc_1');
  expect(started.status).toBe(200);
  expect((started.body as { requests: unknown }).requests).toEqual([
    {
      target: 'tickets',
      key: 'incident:inc_1',
      request: 'update',
      because: 'key incident:inc_1 was started (references ticket)',
      references: ['ticket'],
    },
  ]);
  expect(JSON.stringify(started.body)).not.toContain('SOC-77');
  const fresh = await ask('incident.updated', 'inc_2');
  expect(fresh.body).toMatchObject({
    requests: [{ target: 'tickets', key: 'incident:inc_2', request: 'create' }],
  });
  const resolved = await ask('incident.resolved', 'inc_1');
  expect(resolved.body).toMatchObject({ requests: [{ target: 'tickets', request: 'resolve' }] });
});
