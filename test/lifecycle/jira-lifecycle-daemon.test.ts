import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startJiraStandIn, type JiraStandIn } from '../helpers/start-jira-stand-in.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
let jira: JiraStandIn | undefined;
afterEach(async () => {
  await daemon?.running.close();
  await jira?.close();
  daemon = undefined;
  jira = undefined;
});

const INCIDENTS = 50;
const UPDATES = 5;

describe('an incident lifecycle in a running daemon (issue 14)', () => {
  it('50 incidents x (created, 5 updates, resolved) at 8 connections: 50 tickets, each with its comments in order, closed once', async () => {
    const stand = (jira = await startJiraStandIn());
    const rules = `
targets:
  jira:
    type: http
    concurrency: 8
    requests:
      create:
        url: ${stand.url}/rest/api/2/issue
        body: { fields: { project: { key: SOC }, issuetype: { name: Task }, summary: "{{ data.title }}" } }
        capture: { ticket: body.key }
      update:
        url: "${stand.url}/rest/api/2/issue/{{ ref.ticket }}/comment"
        body: { body: "{{ data.title }}" }
      resolve:
        url: "${stand.url}/rest/api/2/issue/{{ ref.ticket }}/transitions"
        body: { transition: { id: "31" } }
routes:
  - { name: incidents, match: { event: "incident.*" }, to: [jira] }
`;
    const d = (daemon = await startTestDaemon(tempDir(), { rules }));
    // Each incident's events are posted in order; 8 incidents at a time, so their events interleave.
    const postIncident = async (n: number) => {
      const id = `inc_${n}`;
      const events = [
        envelope('incident.created', { incident_id: id, title: `incident ${n}` }),
        ...Array.from({ length: UPDATES }, (_, u) =>
          envelope('incident.updated', { incident_id: id, title: `incident ${n} update ${u + 1}` }),
        ),
        envelope('incident.resolved', { incident_id: id, title: `incident ${n} resolved` }),
      ];
      for (const body of events) {
        const answer = await postWebhook(d.url, body, { secret: SOURCE_SECRET });
        expect(answer.status).toBe(200);
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < INCIDENTS) await postIncident(next++);
      }),
    );
    const done = () => [...stand.issues.values()].filter((issue) => issue.transitions.length > 0).length;
    for (let i = 0; i < 300 && done() < INCIDENTS; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));

    expect(stand.issues.size).toBe(INCIDENTS);
    for (const issue of stand.issues.values()) {
      const n = /^incident (\d+)$/.exec(issue.summary)?.[1];
      expect(issue.comments).toEqual(Array.from({ length: UPDATES }, (_, u) => `incident ${n} update ${u + 1}`));
      expect(issue.transitions).toEqual(['31']);
    }
    const deliveries = await d.deliveries();
    expect(deliveries).toHaveLength(INCIDENTS * (UPDATES + 2));
    expect(deliveries.every((x) => x.state === 'delivered')).toBe(true);
    expect(new Set(deliveries.map((x) => x.correlationKey)).size).toBe(INCIDENTS);
  }, 90_000);
});
