import { describe, expect, it } from 'vitest';
import { closedTickets, expectTicketsInOrder, incidentLifecycle, useJiraDaemon } from '../helpers/jira-lifecycle.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitUntil } from '../crash/crash-checks.js';

const startJira = useJiraDaemon(useTempDirs());

/** Incidents 0-2 are created before the outage, 3-5 during it; all are updated and resolved during it. */
const INCIDENTS = 6;
const OPENED_BEFORE = 3;
const UPDATES = 4;
// Short retries and circuit cooldown, so the outage is retried many times in a few seconds; attempts and age
// enough that nothing is dead-lettered.
const TARGET = [
  'concurrency: 8',
  'retry: { initial_delay: 50ms, max_delay: 300ms, max_attempts: 1000, max_age: 1h }',
  'circuit_breaker: { failures: 5, cooldown: 500ms }',
];
const UNAVAILABLE = { status: 503, headers: { 'content-type': 'text/html' }, body: 'Service Unavailable' };

describe('the ticketing API down while an incident lifecycle queues up (issue 14)', () => {
  it('sends nothing out of order during a 503 outage, then everything, in order, once it recovers', async () => {
    const { stand, daemon: d } = await startJira(TARGET);
    const post = async (body: string) =>
      expect((await postWebhook(d.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
    const events = Array.from({ length: INCIDENTS }, (_, n) => incidentLifecycle(n, UPDATES));
    for (const lifecycle of events.slice(0, OPENED_BEFORE)) await post(lifecycle[0] as string);
    await waitUntil(
      () => stand.issues.size,
      (size) => size === OPENED_BEFORE,
      10_000,
    );

    stand.setOutage(UNAVAILABLE);
    const downFrom = stand.requests.length;
    // Updates of one incident interleave with the others', each incident's in order.
    for (let step = 0; step < UPDATES + 2; step += 1) {
      for (const [n, lifecycle] of events.entries()) {
        if (step > 0 || n >= OPENED_BEFORE) await post(lifecycle[step] as string);
      }
    }
    // Down long enough that the target is retried, its circuit opened and probed again.
    await waitUntil(
      () => stand.requests.length - downFrom,
      (count) => count >= 30,
      20_000,
    );
    const duringOutage = stand.requests.slice(downFrom);
    const pending = await d.deliveries();
    expect(pending.filter((x) => x.state !== 'pending').length).toBe(OPENED_BEFORE);
    stand.setOutage(undefined);

    // While down, only the head of each incident's queue was tried: its first update, or its create.
    const tried = new Set(duringOutage.map((r) => `${r.url} ${r.body.toString('utf8')}`));
    const heads = new Set([
      ...Array.from({ length: OPENED_BEFORE }, (_, n) => {
        const key = [...stand.issues.values()].find((issue) => issue.summary === `incident ${n}`)?.key;
        return `/rest/api/2/issue/${key}/comment {"body":"incident ${n} update 1"}`;
      }),
    ]);
    for (const request of tried) {
      if (request.startsWith('/rest/api/2/issue ')) expect(request).toMatch(/"summary":"incident [3-5]"/);
      else expect(heads.has(request)).toBe(true);
    }

    await waitUntil(
      () => closedTickets(stand),
      (closed) => closed === INCIDENTS,
      30_000,
    );
    expectTicketsInOrder(stand, INCIDENTS, UPDATES);
    const deliveries = await d.deliveries();
    expect(deliveries).toHaveLength(INCIDENTS * (UPDATES + 2));
    expect(deliveries.filter((x) => x.state !== 'delivered')).toEqual([]);
    // The outage was retried through, by the heads alone (at most one per incident).
    const retried = deliveries.filter((x) => x.attempts > 1).length;
    expect(retried).toBeGreaterThan(0);
    expect(retried).toBeLessThanOrEqual(INCIDENTS);
  }, 60_000);
});
