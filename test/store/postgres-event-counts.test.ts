import { expect, it } from 'vitest';
import { describePostgres } from './describe-postgres.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import { postgresJournals } from './postgres-journals.js';

const HOUR = 3_600_000;

describePostgres('PostgreSQL event counts (several writers, migration 7)', () => {
  const { journal, migrated } = postgresJournals();

  it('keeps a row per instance and sums them, also for groups ingested at once', async () => {
    const on = await journal();
    const [a, b] = [await migrated(on), await migrated(on)];
    const items = (n: number) => Array.from({ length: n }, () => makeIngestItem({ receivedAt: T0 + 5 }));
    await Promise.all([a.ingest(items(3)), b.ingest(items(2)), a.ingest(items(1)), b.ingest(items(4))]);
    const rows = await on.sql<{ count: number }>('SELECT count::int AS count FROM event_counts ORDER BY count');
    expect(rows).toEqual([{ count: 4 }, { count: 6 }]);
    expect(await a.eventsPerMinute(T0)).toEqual([
      { minute: T0, kind: 'incident.created', severity: 'high', count: 10 },
    ]);
  });

  it('backfills the last 48 hours of events by the wall clock when migrated, and nothing older', async () => {
    const on = await journal();
    const store = await migrated(on);
    const now = Date.now();
    const minute = (at: number) => Math.floor(at / 60_000) * 60_000;
    await store.ingest([
      makeIngestItem({ receivedAt: now - HOUR }),
      makeIngestItem({ receivedAt: now - HOUR, severity: null }),
      makeIngestItem({ receivedAt: now - 47 * HOUR }),
      makeIngestItem({ receivedAt: now - 49 * HOUR }),
    ]);
    // As a journal of version 6 would be: no counts yet.
    await on.sql('DROP TABLE event_counts');
    await on.sql('DELETE FROM schema_migrations WHERE version >= 7'); // migration 8 is applied again too
    const again = await migrated(on);
    expect(await again.eventsPerMinute(0)).toEqual([
      { minute: minute(now - 47 * HOUR), kind: 'incident.created', severity: 'high', count: 1 },
      { minute: minute(now - HOUR), kind: 'incident.created', severity: null, count: 1 },
      { minute: minute(now - HOUR), kind: 'incident.created', severity: 'high', count: 1 },
    ]);
  });
});
