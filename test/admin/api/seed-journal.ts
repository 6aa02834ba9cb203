import type { IngestItem, Store } from '../../../src/store/store.js';
import { T0, makeIngestItem } from '../../store/make-ingest-item.js';

export interface Seeded {
  /** Event ids, oldest first. */
  readonly events: readonly string[];
  /** Delivery ids by event index and target. */
  readonly delivery: (event: number, target: string) => string;
}

/**
 * Eight events a minute apart: even ones `incident.created` from `monitor` to soc-slack and tickets, odd ones
 * `agent.offline` from `edr` to tickets only. The soc-slack deliveries of events 0 and 2 are dead, the tickets
 * delivery of event 1 is dead and that of event 3 delivered; the rest are pending.
 */
export async function seedJournal(store: Store): Promise<Seeded> {
  const items: IngestItem[] = Array.from({ length: 8 }, (_, i) => {
    const even = i % 2 === 0;
    const made = makeIngestItem({
      receivedAt: T0 + i * 60_000,
      source: even ? 'monitor' : 'edr',
      targets: even ? ['soc-slack', 'tickets'] : ['tickets'],
      body: JSON.stringify({
        event: even ? 'incident.created' : 'agent.offline',
        timestamp: '2026-11-22T10:00:00Z',
        data: { n: i, title: `event ${i}` },
      }),
    });
    // The title as ingest would store it (data.title).
    const title = `event ${i}`;
    return { ...made, event: { ...made.event, kind: even ? 'incident.created' : 'agent.offline', title } };
  });
  await store.ingest(items);
  const finish = async (target: string, eventIndexes: number[], outcome: 'dead' | 'delivered'): Promise<void> => {
    const wanted = new Set(eventIndexes.map((i) => items[i]?.event.id));
    const claims = (await store.claimDue({ target, now: T0 + 600_000, limit: 100, leaseMs: 60_000 })).filter((c) =>
      wanted.has(c.event.id),
    );
    await store.recordAttempts(
      claims.map((c) => ({
        deliveryId: c.delivery.id,
        claimToken: c.claimToken,
        attempt: {
          startedAt: T0 + 600_000,
          durationMs: 42,
          outcome,
          statusCode: outcome === 'dead' ? 404 : 200,
          detail: outcome === 'dead' ? 'HTTP 404 not found' : null,
        },
        next: { state: outcome, nextAttemptAt: T0 + 600_000, lastError: outcome === 'dead' ? 'HTTP 404' : null },
      })),
    );
    await store.releaseAllClaims(T0 + 600_000);
  };
  await finish('soc-slack', [0, 2], 'dead');
  await finish('tickets', [1], 'dead');
  await finish('tickets', [3], 'delivered');
  const ids = new Map<string, string>();
  for (const [index, item] of items.entries()) {
    for (const d of await store.listDeliveries(item.event.id)) ids.set(`${index}/${d.target}`, d.id);
  }
  return {
    events: items.map((item) => item.event.id),
    delivery: (event, target) => {
      const id = ids.get(`${event}/${target}`);
      if (id === undefined) throw new Error(`no delivery for event ${event} to ${target}`);
      return id;
    },
  };
}
