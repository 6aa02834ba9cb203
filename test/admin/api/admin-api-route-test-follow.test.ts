import { afterEach, expect, it } from 'vitest';
import { FOLLOW_THROUGH_ROUTES } from '../../lifecycle/support/follow-through-routes.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER } from './test-keys.js';

const loader = rulesLoader();
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const RULES = `targets:
  pager: { type: pagerduty, routing_key: "c0ffee5ecre7c0ffee5ecre7c0ffee5e" }
  tickets: { type: http, url: https://tickets.example/api, key: "{{ data.incident_id }}" }
  chat: { type: slack, webhook_url: https://hooks.slack.example/y, follow: false }
${FOLLOW_THROUGH_ROUTES}`;

it('route-test names the targets a resolve follows its incident to, from the journal, with their requests', async () => {
  api = await startAdminApi({ rules: loader.compile(RULES) });
  // A daemon paged incident inc_1 (and posted it to chat, which does not follow).
  const incident = { key: 'incident:inc_1', severity: 'critical', severityRank: 3, host: null, agent: null };
  const item = makeIngestItem({ targets: ['pager', 'chat'], severity: 'critical' });
  const event = { ...item.event, matchedRoutes: ['critical-pages', 'tickets'] };
  await api.store.ingest([{ ...item, event, keys: ['incident:inc_1', null], incident }]);
  const ask = (incidentId: string) =>
    (api as AdminApiHarness).request('/api/v1/route-test', {
      key: READER.key,
      body: { event: 'incident.resolved', timestamp: '2026-11-22T10:00:00Z', data: { incident_id: incidentId } },
    });

  const paged = await ask('inc_1');
  expect(paged.status).toBe(200);
  expect(paged.body).toMatchObject({
    targets: [],
    followed: [{ target: 'pager', reason: 'followed incident:inc_1 from route critical-pages' }],
    requests: [{ target: 'pager', key: 'incident:inc_1', request: 'resolve' }],
  });
  const never = await ask('inc_2');
  expect(never.body).toMatchObject({ targets: [], followed: [], requests: [] });
});
