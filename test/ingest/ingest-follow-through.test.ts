import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startPostgresDaemon } from '../helpers/start-postgres-daemon.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';
import { FOLLOW_THROUGH_ROUTES } from '../lifecycle/support/follow-through-routes.js';

// Nothing listens on port 9: deliveries are recorded and fail, which is all these tests look at.
const RULES = `
targets:
  pager: { type: pagerduty, routing_key: "c0ffee5ecre7c0ffee5ecre7c0ffee5e", base_url: "http://127.0.0.1:9" }
  tickets: { type: http, url: "http://127.0.0.1:9/api/events", key: "{{ data.incident_id }}" }
  chat: { type: http, url: "http://127.0.0.1:9/chat", key: "{{ data.incident_id }}", follow: false }
${FOLLOW_THROUGH_ROUTES}`;

interface Journal {
  readonly url: string;
  withStore<T>(read: (store: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Reads through a store of its own, closed after. */
const using =
  (open: () => Store) =>
  async <T>(read: (store: Store) => Promise<T>): Promise<T> => {
    const store = open();
    try {
      return await read(store);
    } finally {
      await store.close();
    }
  };

function followThrough(start: () => Promise<Journal>): void {
  let journal: Journal | undefined;
  afterEach(async () => {
    await journal?.close();
    journal = undefined;
  });
  /** Posts the event; answers the targets its deliveries went to, sorted. */
  const send = async (event: string, data: Record<string, unknown>): Promise<string[]> => {
    const running = journal as Journal;
    const answer = await postWebhook(running.url, envelope(event, data), { secret: SOURCE_SECRET });
    expect(answer.status).toBe(200);
    const { id, deliveries } = answer.body as { id: string; deliveries: number };
    const stored = await running.withStore((store) => store.listDeliveries(id));
    expect(stored).toHaveLength(deliveries);
    return stored.map((d) => d.target).sort();
  };

  it('sends a paged incident its lowered update and its resolve, and a resolve only where the incident went', async () => {
    journal = await start();
    expect(await send('incident.created', { incident_id: 'inc_1', severity: 'critical' })).toEqual([
      'chat',
      'pager',
      'tickets',
    ]);
    // No route matches a medium update nor a resolve: they follow the incident, except to `follow: false`.
    expect(await send('incident.updated', { incident_id: 'inc_1', severity: 'medium' })).toEqual(['pager', 'tickets']);
    expect(await send('incident.resolved', { incident_id: 'inc_1' })).toEqual(['pager', 'tickets']);
    const resolve = await journal.withStore((store) => store.findDeliveries({ kind: 'incident.resolved', limit: 10 }));
    expect(resolve.map((d) => [d.target, d.correlationKey ?? null])).toEqual(
      expect.arrayContaining([
        ['pager', 'incident:inc_1'],
        ['tickets', 'inc_1'],
      ]),
    );

    // A high incident never reached the pager: its resolve does not go there.
    expect(await send('incident.created', { incident_id: 'inc_2', severity: 'high' })).toEqual(['chat', 'tickets']);
    expect(await send('incident.resolved', { incident_id: 'inc_2' })).toEqual(['tickets']);
    // One nobody got is resolved nowhere; another source's incident of the same id is not this one.
    expect(await send('incident.created', { incident_id: 'inc_3', severity: 'low' })).toEqual([]);
    expect(await send('incident.resolved', { incident_id: 'inc_3' })).toEqual([]);
  }, 60_000);

  it('starts the lifecycle on a route the severity rises onto, and follows from there', async () => {
    journal = await start();
    expect(await send('incident.created', { incident_id: 'inc_9', severity: 'high' })).toEqual(['chat', 'tickets']);
    expect(await send('incident.updated', { incident_id: 'inc_9', severity: 'critical' })).toEqual([
      'chat',
      'pager',
      'tickets',
    ]);
    expect(await send('incident.resolved', { incident_id: 'inc_9' })).toEqual(['pager', 'tickets']);
  }, 60_000);
}

describe('follow-through at ingest on SQLite', () => {
  followThrough(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-follow-'));
    const daemon = await startTestDaemon(dir, { rules: RULES });
    return {
      url: daemon.url,
      withStore: using(() => createSqliteStore({ path: daemon.dbPath })),
      close: async () => {
        await daemon.running.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describePostgres('follow-through at ingest on PostgreSQL', () => {
  followThrough(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-follow-'));
    const postgres = await tempPostgresJournal();
    const daemon = await startPostgresDaemon(dir, {
      databaseUrl: testDatabaseUrl,
      schema: postgres.schema,
      rules: RULES,
    });
    return {
      url: daemon.url,
      withStore: using(() => postgres.openWith({})),
      close: async () => {
        await daemon.running.close();
        await postgres.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
