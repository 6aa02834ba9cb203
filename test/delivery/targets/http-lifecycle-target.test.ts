import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/delivery/outcome.js';
import type { DeliveryJob } from '../../../src/delivery/target.js';
import { createHttpTarget } from '../../../src/delivery/targets/http-target.js';
import { NOTHING_TO_RESOLVE } from '../../../src/delivery/targets/build-http-attempt.js';
import type { HttpTargetSpec } from '../../../src/rules/rules.js';
import { startJiraStandIn } from '../../helpers/start-jira-stand-in.js';
import { httpSpecCompiler } from './http-spec-compiler.js';
import { makeHttpSpec, makeJob } from './make-target-spec.js';
import { resolvesToMetadata, signal, useHttpTargets } from './use-http-targets.js';

const compile = httpSpecCompiler();
const { receiver, target } = useHttpTargets(createHttpTarget, makeHttpSpec);

/** The Jira lifecycle of docs/targets.md, pointed at `base`. */
const jira = (base: string): HttpTargetSpec =>
  compile(`requests:
  create:
    url: ${base}/rest/api/2/issue
    body: { fields: { project: { key: SOC }, issuetype: { name: Task }, summary: '{{ data.title }}' } }
    capture: { ticket: body.key, self: header.X-Missing }
  update:
    url: '${base}/rest/api/2/issue/{{ ref.ticket }}/comment'
    body: { body: '{{ event }}: {{ data.title }}' }
  resolve:
    url: '${base}/rest/api/2/issue/{{ ref.ticket }}/transitions'
    body: { transition: { id: '31' }, update: { comment: [{ add: { body: 'Resolved in Switchyard' } }] } }`);

const job = (kind: string, title: string, references: Record<string, string> | null = null): DeliveryJob => ({
  ...makeJob({ event: kind, timestamp: '2026-11-22T10:00:00Z', data: { incident_id: 'inc_1', title } }),
  correlationKey: 'incident:inc_1',
  references,
});
const captured = (outcome: Outcome) => (outcome.kind === 'delivered' ? outcome.captured : undefined);

describe('HTTP target with requests per situation, against a Jira stand-in', () => {
  it('creates one issue, captures its key, comments on updates and transitions it on resolve', async () => {
    const api = await receiver(() => startJiraStandIn());
    const tickets = target(jira(api.url));

    const created = await tickets.send(job('incident.created', 'Ransomware on host-7'), signal());
    expect(created).toMatchObject({ kind: 'delivered', status: 201 });
    expect(captured(created)).toEqual({ ticket: 'SOC-1' });
    expect(created.kind === 'delivered' && created.detail).toMatch(
      /^capture missed: self \(no header x-missing in the answer\); /,
    );
    // What the engine will do: remember the captured values for the key and hand them to later deliveries.
    const references = captured(created) ?? {};
    for (const title of ['spreading', 'contained']) {
      const updated = await tickets.send(job('incident.updated', title, references), signal());
      expect(updated).toEqual({ kind: 'delivered', status: 201, detail: expect.any(String) });
    }
    const resolved = await tickets.send(job('incident.resolved', 'fixed', references), signal());
    expect(resolved).toMatchObject({ kind: 'delivered', status: 204 });

    const stand = api as Awaited<ReturnType<typeof startJiraStandIn>>;
    expect([...stand.issues.values()]).toEqual([
      {
        key: 'SOC-1',
        summary: 'Ransomware on host-7',
        comments: ['incident.updated: spreading', 'incident.updated: contained'],
        transitions: ['31'],
      },
    ]);
    expect(api.requests.map((request) => request.url)).toEqual([
      '/rest/api/2/issue',
      '/rest/api/2/issue/SOC-1/comment',
      '/rest/api/2/issue/SOC-1/comment',
      '/rest/api/2/issue/SOC-1/transitions',
    ]);
  });

  it('a reference that would climb the path is refused before sending; one that only looks hostile stays a segment', async () => {
    const api = await receiver(() => startJiraStandIn());
    const tickets = target(jira(api.url));
    const climbing = await tickets.send(job('incident.updated', 'x', { ticket: '..' }), signal());
    expect(climbing).toMatchObject({ kind: 'permanent', error: expect.stringMatching(/path segment 5 is "\.\."/) });
    const hostile = await tickets.send(job('incident.updated', 'x', { ticket: '../../issue?x=1#' }), signal());
    // Jira has no such issue: the 404 of a well-formed URL, not a request sent elsewhere.
    expect(hostile).toMatchObject({ kind: 'permanent', status: 404 });
    expect(api.requests.map((request) => request.url)).toEqual([
      '/rest/api/2/issue/..%2F..%2Fissue%3Fx%3D1%23/comment',
    ]);
  });

  it('a resolve with nothing delivered for its key is skipped with the reason, nothing sent', async () => {
    const api = await receiver(() => startJiraStandIn());
    const outcome = await target(jira(api.url)).send(job('incident.resolved', 'fixed'), signal());
    expect(outcome).toEqual({ kind: 'skipped', error: NOTHING_TO_RESOLVE });
    expect(api.requests).toEqual([]);
  });

  it('a Jira that lost the issue answers 404, which is permanent', async () => {
    const api = await receiver(() => startJiraStandIn());
    const outcome = await target(jira(api.url)).send(job('incident.updated', 'x', { ticket: 'SOC-404' }), signal());
    expect(outcome).toMatchObject({ kind: 'permanent', status: 404 });
  });

  it('a rendered URL still goes through the address guard', async () => {
    const tickets = target(jira('http://jira.internal.example'), resolvesToMetadata);
    const outcome = await tickets.send(job('incident.updated', 'x', { ticket: 'SOC-1' }), signal());
    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringMatching(/169\.254\.169\.254/) });
  });
});
