import { expect, it } from 'vitest';
import { startJiraStandIn } from '../helpers/start-jira-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { runDocLifecycle } from './support/doc-lifecycle-daemon.js';

const tempDir = useTempDirs();

it('docs/targets.md jira-incidents: one issue per incident, comments in order, transitioned once', async () => {
  const jira = await startJiraStandIn();
  const example = { target: 'jira-incidents', origin: 'https://your-domain.atlassian.net' };
  await runDocLifecycle(tempDir(), jira, example, { incidents: 3, updates: 3 });

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
