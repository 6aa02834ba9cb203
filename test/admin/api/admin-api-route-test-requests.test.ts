import { afterEach, expect, it } from 'vitest';
import { LIFECYCLE_RULES } from '../../lifecycle/support/lifecycle-rules.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { seedStartedKey } from '../../store/seed-started-key.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER } from './test-keys.js';

const loader = rulesLoader();
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

it('route-test says which request each lifecycle delivery would use, from the key references in the journal', async () => {
  api = await startAdminApi({ rules: loader.compile(LIFECYCLE_RULES) });
  const { store } = api;
  await seedStartedKey(store, 'tickets', 'incident:inc_1', { ticket: 'SOC-77' });
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
    { target: 'ordered', key: null, request: 'create', because: 'no correlation key: the event stands alone' },
  ]);
  expect(JSON.stringify(started.body)).not.toContain('SOC-77');
  const fresh = await ask('incident.updated', 'inc_2');
  expect(fresh.body).toMatchObject({
    requests: [{ target: 'tickets', key: 'incident:inc_2', request: 'create' }, { target: 'ordered' }],
  });
  const resolved = await ask('incident.resolved', 'inc_1');
  expect(resolved.body).toMatchObject({
    requests: [
      { target: 'tickets', request: 'resolve' },
      { target: 'ordered', request: 'resolve' },
    ],
  });
});
