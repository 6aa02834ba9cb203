import { afterEach, expect } from 'vitest';
import { envelope } from './post-webhook.js';
import { startJiraStandIn, type JiraStandIn } from './start-jira-stand-in.js';
import { startTestDaemon, type TestDaemon } from './start-test-daemon.js';

/**
 * Rules with one Jira lifecycle target `jira` at `url` (create and capture the key, comment on updates,
 * transition 31 on resolve) that every incident event goes to; `options` are more of the target's entries,
 * one YAML line each (`concurrency: 8`, `retry: { initial_delay: 100ms }`, `headers: { X-Sender: a }`).
 */
export function jiraLifecycleRules(url: string, options: readonly string[] = ['concurrency: 8']): string {
  return `
targets:
  jira:
    type: http
    ${options.join('\n    ')}
    requests:
      create:
        url: ${url}/rest/api/2/issue
        body: { fields: { project: { key: SOC }, issuetype: { name: Task }, summary: "{{ data.title }}" } }
        capture: { ticket: body.key }
      update:
        url: "${url}/rest/api/2/issue/{{ ref.ticket }}/comment"
        body: { body: "{{ data.title }}" }
      resolve:
        url: "${url}/rest/api/2/issue/{{ ref.ticket }}/transitions"
        body: { transition: { id: "31" } }
routes:
  - { name: incidents, match: { event: "incident.*" }, to: [jira] }
`;
}

/** Incident `n`'s events in order: created (title `incident n`), `updates` updates, resolved. */
export function incidentLifecycle(n: number, updates: number): string[] {
  const id = `inc_${n}`;
  return [
    envelope('incident.created', { incident_id: id, title: `incident ${n}` }),
    ...Array.from({ length: updates }, (_, u) =>
      envelope('incident.updated', { incident_id: id, title: `incident ${n} update ${u + 1}` }),
    ),
    envelope('incident.resolved', { incident_id: id, title: `incident ${n} resolved` }),
  ];
}

/** One ticket per incident, each with its `updates` comments in order and transitioned (closed) once. */
export function expectTicketsInOrder(stand: JiraStandIn, incidents: number, updates: number): void {
  expect(stand.issues.size).toBe(incidents);
  for (const issue of stand.issues.values()) {
    const n = /^incident (\d+)$/.exec(issue.summary)?.[1];
    expect(issue.comments).toEqual(Array.from({ length: updates }, (_, u) => `incident ${n} update ${u + 1}`));
    expect(issue.transitions).toEqual(['31']);
  }
}

/** Issues transitioned at least once. */
export const closedTickets = (stand: JiraStandIn): number =>
  [...stand.issues.values()].filter((issue) => issue.transitions.length > 0).length;

/**
 * Registers an afterEach that closes them, and returns how to start a Jira stand-in and a daemon (SQLite, in a
 * directory from `tempDir`) whose rules send every incident event to it (`target`: see jiraLifecycleRules).
 */
export function useJiraDaemon(
  tempDir: () => string,
): (target?: readonly string[]) => Promise<{ stand: JiraStandIn; daemon: TestDaemon }> {
  let daemon: TestDaemon | undefined;
  let stand: JiraStandIn | undefined;
  afterEach(async () => {
    await daemon?.running.close();
    await stand?.close();
    daemon = undefined;
    stand = undefined;
  });
  return async (target) => {
    stand = await startJiraStandIn();
    daemon = await startTestDaemon(tempDir(), { rules: jiraLifecycleRules(stand.url, target) });
    return { stand, daemon };
  };
}
