import { expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { describePostgres } from './describe-postgres.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import { postgresJournals } from './postgres-journals.js';
import { testDatabaseUrl } from './temp-postgres-journal.js';

describePostgres('PostgreSQL store schema', () => {
  const { journal, migrated, track } = postgresJournals();

  it('refuses a journal whose schema is newer than this code, and changes nothing', async () => {
    const on = await journal();
    const first = await migrated(on);
    await first.ingest([makeIngestItem()]);
    await on.sql("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)");

    const store = await on.open();
    track(() => store.close());
    await expect(store.migrate()).rejects.toMatchObject({
      code: 'journal_schema_too_new',
      message: expect.stringContaining('version 99'),
    });
    await expect(store.ingest([makeIngestItem()])).rejects.toMatchObject({ code: 'journal_schema_too_new' });
    await expect(store.counts()).rejects.toMatchObject({ code: 'journal_schema_too_new' });
    expect(await on.sql('SELECT count(*)::int AS events FROM events')).toEqual([{ events: 1 }]);
  });

  it('keeps journals in different schemas of one database apart', async () => {
    const [one, two] = [await journal(), await journal()];
    const [a, b] = [await migrated(one), await migrated(two)];
    const item = makeIngestItem({ body: '{"same":1}' });

    await a.ingest([item]);

    expect(await b.counts()).toEqual({ events: 0, deliveries: 0 });
    expect((await b.ingest([{ ...item, event: { ...item.event, id: `${item.event.id}b` } }]))[0]).toMatchObject({
      duplicate: false,
    });
  });

  it('numbers deliveries from an identity, shown as dlv_<n> like SQLite, in the order created', async () => {
    const on = await journal();
    const store = await migrated(on);
    const item = makeIngestItem({ targets: ['a', 'b', 'c'] });
    await store.ingest([item, makeIngestItem({ targets: ['a'] })]);

    const listed = await store.findDeliveries({});
    expect(listed.map((d) => d.id)).toEqual(['dlv_1', 'dlv_2', 'dlv_3', 'dlv_4']);
    expect((await store.getDelivery('dlv_4'))?.target).toBe('a');
  });

  it('returns every byte value of a body unchanged, and times as numbers', async () => {
    const on = await journal();
    const store = await migrated(on);
    const body = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    const item = makeIngestItem({ body, receivedAt: T0 + 123 });
    await store.ingest([item]);

    const stored = await store.getEvent(item.event.id);
    expect(stored?.body.equals(body)).toBe(true);
    expect(stored?.receivedAt).toBe(T0 + 123);
    expect(typeof (await store.listDeliveries(item.event.id))[0]?.createdAt).toBe('number');
  });

  it('serves the dedupe lookup and the due query from their indexes', async () => {
    const on = await journal();
    await migrated(on);
    const client = await on.connect();
    track(() => client.end());
    // On empty tables the planner would rightly scan; forbid that to see which index it can use.
    await client.query('SET enable_seqscan = off');
    const plan = async (sql: string) =>
      (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(
      await plan(
        "SELECT id FROM events WHERE source = 'm' AND body_sha256 = '\\x00' AND received_at >= 0 ORDER BY received_at, id LIMIT 1",
      ),
    ).toContain('events_dedupe');
    // A claim's order (lease-postgres-due.ts): read from the index as it is, never all due rows sorted (migration 8).
    const due = await plan(
      "SELECT id FROM deliveries WHERE state = 'pending' AND target = 't' AND next_attempt_at <= 0 ORDER BY next_attempt_at, id LIMIT 5",
    );
    expect(due).toContain('deliveries_due');
    expect(due).not.toMatch(/Sort/);
  });

  it('rejects a schema name that would need quoting, and a store with nowhere to connect', () => {
    expect(() => createPostgresStore({ url: testDatabaseUrl, schema: 'Journal; DROP' })).toThrow(RangeError);
    expect(() => createPostgresStore({})).toThrow(RangeError);
    expect(() => createPostgresStore({ url: testDatabaseUrl, connectionTimeoutMs: 0 })).toThrow(RangeError);
  });
});
