import { afterEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { describePostgres } from './describe-postgres.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';
import { finishDeliveries } from './retention-store-contract.js';
import { tempPostgresJournal, type TempPostgresJournal } from './temp-postgres-journal.js';

describePostgres('PostgreSQL retention: several instances', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function twoInstances(): Promise<{ journal: TempPostgresJournal; a: Store; b: Store }> {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const [a, b] = [journal.openWith({}), journal.openWith({})];
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    await a.migrate();
    await b.migrate();
    return { journal, a, b };
  }
  const request = { eventsBefore: T0 + 30 * DAY_MS, deadBefore: T0, limit: 500 };

  it('lets one instance prune at a time: the other is told busy and removes nothing', async () => {
    const { journal, a, b } = await twoInstances();
    await a.ingest([makeIngestItem({ receivedAt: T0, targets: ['slack'] })]);
    await finishDeliveries(a, 'slack', 'delivered', T0 + 1);

    // An instance in the middle of a batch holds the prune lock for its transaction.
    const other = await journal.connect();
    cleanups.push(() => other.end());
    await other.query('BEGIN');
    await other.query("SELECT pg_advisory_xact_lock(hashtext('switchyard.prune'), hashtext($1))", [journal.schema]);
    expect(await b.pruneBatch(request)).toMatchObject({ busy: true, events: 0 });
    expect(await a.pruneBatch(request)).toMatchObject({ busy: true, events: 0 });
    expect(await a.counts()).toEqual({ events: 1, deliveries: 1 });

    await other.query('COMMIT');
    expect(await b.pruneBatch(request)).toMatchObject({ busy: false, events: 1, deliveries: 1, attempts: 1 });
  });

  it('does not remove an event whose dead delivery is replayed by another instance at the same moment', async () => {
    const { journal, a, b } = await twoInstances();
    const item = makeIngestItem({ receivedAt: T0, targets: ['slack'] });
    await a.ingest([item]);
    await finishDeliveries(a, 'slack', 'delivered', T0 + 1);
    const [delivery] = await a.listDeliveries(item.event.id);

    // The replay takes the delivery's row first; the batch waits for it, then sees it pending and keeps the event.
    const other = await journal.connect();
    cleanups.push(() => other.end());
    await other.query('BEGIN');
    await other.query("UPDATE deliveries SET state = 'pending' WHERE event_id = $1", [item.event.id]);
    const batch = b.pruneBatch({ ...request, deadBefore: T0 + 30 * DAY_MS });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await other.query('COMMIT');
    expect(await batch).toMatchObject({ busy: false, events: 0 });
    expect((await a.getDelivery(delivery?.id ?? ''))?.state).toBe('pending');
  });
});
