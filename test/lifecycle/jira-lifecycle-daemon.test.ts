import { afterEach, expect, it } from 'vitest';
import { startJiraStandIn } from '../helpers/start-jira-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { docLifecycleRules, sendIncidentLifecycles, startDocLifecycleDaemon } from './support/doc-lifecycle-daemon.js';

const tempDir = useTempDirs();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('docs/targets.md jira-incidents: one issue per incident, comments in order, transitioned once', async () => {
  const jira = await startJiraStandIn();
  cleanups.push(() => jira.close());
  const rules = docLifecycleRules('jira-incidents', 'https://your-domain.atlassian.net', jira.url);
  const daemon = await startDocLifecycleDaemon(tempDir(), rules);
  cleanups.push(() => daemon.running.close());

  await sendIncidentLifecycles(daemon, 3, 3);

  const issues = [...jira.issues.values()].sort((a, b) => a.summary.localeCompare(b.summary));
  expect(issues.map((issue) => issue.summary)).toEqual([
    '[HIGH] inc_1 created',
    '[HIGH] inc_2 created',
    '[HIGH] inc_3 created',
  ]);
  for (const issue of issues) {
    const id = issue.summary.replace('[HIGH] ', '').replace(' created', '');
    expect(issue.comments).toEqual([1, 2, 3].map((n) => `incident.updated: ${id} update ${n} (severity high)`));
    expect(issue.transitions).toEqual(['31']);
  }
  expect(jira.requests).toHaveLength(15);
}, 40_000);
