import { afterEach, expect, it } from 'vitest';
import { startTheHiveStandIn } from '../helpers/start-thehive-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { docLifecycleRules, sendIncidentLifecycles, startDocLifecycleDaemon } from './support/doc-lifecycle-daemon.js';

const tempDir = useTempDirs();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('docs/targets.md thehive-cases: one case per incident, comments in order, closed once', async () => {
  const thehive = await startTheHiveStandIn();
  cleanups.push(() => thehive.close());
  const rules = docLifecycleRules('thehive-cases', 'https://thehive.example.com', thehive.url);
  const daemon = await startDocLifecycleDaemon(tempDir(), rules);
  cleanups.push(() => daemon.running.close());

  await sendIncidentLifecycles(daemon, 3, 3);

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
  // Every request reached a case it knew: no 404, nothing sent twice.
  expect(thehive.requests).toHaveLength(15);
  expect(thehive.requests.every((request) => request.headers.authorization?.startsWith('Bearer '))).toBe(true);
}, 40_000);
