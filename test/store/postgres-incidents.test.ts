import { afterEach, expect, it } from 'vitest';
import { describePostgres } from './describe-postgres.js';
import { describeIncidentStoreContract, incidentItem } from './incident-store-contract.js';
import { tempPostgresJournal } from './temp-postgres-journal.js';

describePostgres('PostgreSQL incidents', () => {
  describeIncidentStoreContract('PostgreSQL', () => tempPostgresJournal());

  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('counts every event of one incident when two instances ingest it at the same time', async () => {
    const on = await tempPostgresJournal();
    cleanups.push(() => on.dispose());
    const [a, b] = [on.openWith({ pool: { max: 4 } }), on.openWith({ pool: { max: 4 } })];
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    await a.migrate();
    // Four groups in flight per instance, each a created or an updated event of the same incident.
    const rounds = 10;
    const writers = [a, b, a, b, a, b, a, b];
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        writers.map((store, i) =>
          store.ingest([incidentItem(round * 10 + i, 'incident.updated', 'incident:inc_9', { targets: [] })]),
        ),
      );
    }
    const [record] = await a.findIncidents({ limit: 1 });
    expect(record?.events).toBe(rounds * writers.length);
    expect((await a.incidentHistory('monitor', 'incident:inc_9')).events).toHaveLength(rounds * writers.length);
  });
});
