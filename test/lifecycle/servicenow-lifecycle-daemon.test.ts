import { afterEach, expect, it } from 'vitest';
import { startServiceNowStandIn } from '../helpers/start-servicenow-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { docLifecycleRules, sendIncidentLifecycles, startDocLifecycleDaemon } from './support/doc-lifecycle-daemon.js';

const tempDir = useTempDirs();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('docs/targets.md servicenow-incidents: one incident record per incident, work notes in order, resolved once', async () => {
  const servicenow = await startServiceNowStandIn();
  cleanups.push(() => servicenow.close());
  const rules = docLifecycleRules('servicenow-incidents', 'https://your-instance.service-now.com', servicenow.url);
  const daemon = await startDocLifecycleDaemon(tempDir(), rules);
  cleanups.push(() => daemon.running.close());

  await sendIncidentLifecycles(daemon, 3, 3);

  const records = [...servicenow.incidents.values()].sort((a, b) => a.correlation_id.localeCompare(b.correlation_id));
  expect(records.map((record) => [record.correlation_id, record.short_description])).toEqual([
    ['inc_1', 'inc_1 created'],
    ['inc_2', 'inc_2 created'],
    ['inc_3', 'inc_3 created'],
  ]);
  for (const record of records) {
    const id = record.correlation_id;
    expect(record.work_notes).toEqual([1, 2, 3].map((n) => `incident.updated: ${id} update ${n} (severity high)`));
    expect(record.states).toEqual(['6']);
    expect(record.close_code).toBe('Solution provided');
  }
  // Every request reached a record it knew: no 404, nothing sent twice.
  expect(servicenow.requests).toHaveLength(15);
  expect(servicenow.requests.filter((request) => request.method === 'PATCH')).toHaveLength(12);
}, 40_000);
