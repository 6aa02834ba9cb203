import { describe, expect, it } from 'vitest';
import { closedTickets, expectTicketsInOrder, incidentLifecycle, useJiraDaemon } from '../helpers/jira-lifecycle.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const startJira = useJiraDaemon(useTempDirs());

const INCIDENTS = 50;
const UPDATES = 5;

describe('an incident lifecycle in a running daemon (issue 14)', () => {
  it('50 incidents x (created, 5 updates, resolved) at 8 connections: 50 tickets, each with its comments in order, closed once', async () => {
    const { stand, daemon: d } = await startJira();
    // Each incident's events are posted in order; 8 incidents at a time, so their events interleave.
    const postIncident = async (n: number) => {
      for (const body of incidentLifecycle(n, UPDATES)) {
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
    for (let i = 0; i < 300 && closedTickets(stand) < INCIDENTS; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expectTicketsInOrder(stand, INCIDENTS, UPDATES);
    const deliveries = await d.deliveries();
    expect(deliveries).toHaveLength(INCIDENTS * (UPDATES + 2));
    expect(deliveries.every((x) => x.state === 'delivered')).toBe(true);
    expect(new Set(deliveries.map((x) => x.correlationKey)).size).toBe(INCIDENTS);
  }, 90_000);
});
