import { expect, it } from 'vitest';
import { startTheHiveStandIn } from '../helpers/start-thehive-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { runDocLifecycle } from './support/doc-lifecycle-daemon.js';

const tempDir = useTempDirs();

it('docs/targets.md thehive-cases: one case per incident, comments in order, closed once', async () => {
  const thehive = await startTheHiveStandIn();
  // As TheHive does, the stand-in refuses a case it does not have: a wrong _id could not pass unseen.
  const unknown = await fetch(`${thehive.url}/api/v1/case/~1/comment`, { method: 'POST', body: '{"message":"x"}' });
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({ type: 'NotFoundError' });
  const example = { target: 'thehive-cases', origin: 'https://thehive.example.com' };
  await runDocLifecycle(tempDir(), thehive, example, { incidents: 3, updates: 3 });

  const cases = [...thehive.cases.values()].sort((a, b) => a.title.localeCompare(b.title));
  expect(cases.map((found) => [found.title, found.severity])).toEqual([
    ['inc_1 created', 3],
    ['inc_2 created', 3],
    ['inc_3 created', 3],
  ]);
  for (const found of cases) {
    const id = found.title.replace(' created', '');
    expect(found.comments).toEqual([1, 2, 3].map((n) => `incident.updated: ${id} update ${n} (severity high)`));
    expect(found.statuses).toEqual(['TruePositive']);
    expect(found.summary).toMatch(/^Resolved in the source at 2026-11-22T10:00:00Z \(Switchyard evt_/);
  }
  // After the probe above, every request reached a case it knew: no 404, nothing sent twice.
  expect(thehive.requests.slice(1)).toHaveLength(15);
  expect(thehive.requests.slice(1).every((request) => request.headers.authorization?.startsWith('Bearer '))).toBe(true);
}, 40_000);
