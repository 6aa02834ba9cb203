import { expect, it } from 'vitest';
import { startServiceNowStandIn } from '../helpers/start-servicenow-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { runDocLifecycle } from './support/doc-lifecycle-daemon.js';

const tempDir = useTempDirs();

it('docs/targets.md servicenow-incidents: one incident record per incident, work notes in order, resolved once', async () => {
  const servicenow = await startServiceNowStandIn();
  // As ServiceNow does, the stand-in refuses a record it does not have: a wrong sys_id could not pass unseen.
  const unknown = await fetch(`${servicenow.url}/api/now/table/incident/${'0'.repeat(32)}`, {
    method: 'PATCH',
    body: '{"state":"6"}',
  });
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({ error: { message: 'No Record found' }, status: 'failure' });
  const example = { target: 'servicenow-incidents', origin: 'https://your-instance.service-now.com' };
  await runDocLifecycle(tempDir(), servicenow, example, { incidents: 3, updates: 3 });

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
  // After the probe above, every request reached a record it knew: no 404, nothing sent twice.
  expect(servicenow.requests.slice(1)).toHaveLength(15);
  expect(servicenow.requests.slice(1).filter((request) => request.method === 'PATCH')).toHaveLength(12);
}, 40_000);
