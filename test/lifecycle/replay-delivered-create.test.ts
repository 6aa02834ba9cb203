import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { Store, StoredDelivery } from '../../src/store/store.js';
import { waitUntil } from '../crash/crash-checks.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { startPostgresDaemon } from '../helpers/start-postgres-daemon.js';
import { startRedmineStandIn, type RedmineStandIn } from '../helpers/start-redmine-stand-in.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';
import { redmineRules } from './support/redmine-rules.js';

/** A running daemon on one journal, as the scenario needs it. */
interface Running {
  readonly url: string;
  /** The environment the CLI needs to find the daemon's journal. */
  readonly env: Record<string, string>;
  /** Reads the journal through a store of its own. */
  read<T>(read: (store: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Reads through a store of its own, closed after. */
const reading =
  (open: () => Store) =>
  async <T>(read: (store: Store) => Promise<T>): Promise<T> => {
    const store = open();
    try {
      return await read(store);
    } finally {
      await store.close();
    }
  };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The create of an incident is delivered but its answer was over the capture bound (a Redmine that includes the
 * journals), so its update is dead for want of ref.issue. The operator fixes the instance and replays the
 * create with --include-delivered, then the dead update: the create goes as a create (a second issue, whose id
 * is captured), never as an update, never dead, and the update follows on the new issue.
 */
function replayScenario(start: (redmineUrl: string) => Promise<Running>): void {
  it('replays a delivered create as a create, never an update or dead, and the held update then follows', async () => {
    const redmine: RedmineStandIn = await startRedmineStandIn({ journalBytes: 1_100_000 });
    cleanups.push(() => redmine.close());
    const daemon = await start(redmine.url);
    cleanups.push(() => daemon.close());
    const rows = () => daemon.read((store) => store.findDeliveries({ limit: 100 }));
    const byId = (list: StoredDelivery[], id: string) => list.find((row) => row.id === id);
    for (const [kind, title] of [
      ['incident.created', 'Ransomware on db-1'],
      ['incident.updated', 'spreading'],
    ]) {
      const posted = await postWebhook(daemon.url, envelope(kind as string, { incident_id: 'inc_1', title }), {
        secret: SOURCE_SECRET,
      });
      expect(posted.status).toBe(200);
    }
    const first = await waitUntil(
      rows,
      (list) => list.length === 2 && list.every((r) => r.state !== 'pending'),
      15_000,
    );
    const [create, update] = [...first].sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4))) as [
      StoredDelivery,
      StoredDelivery,
    ];
    expect([create.state, update.state]).toEqual(['delivered', 'dead']);

    redmine.setJournalBytes(0);
    const replay = spawnCli(['replay', create.id, '--include-delivered'], daemon.env);
    expect(await replay.exited).toBe(0);
    const replayed = await waitUntil(
      rows,
      (list) => byId(list, create.id)?.state !== 'pending' && byId(list, create.id)?.attempts === 2,
      15_000,
    );
    expect(byId(replayed, create.id)).toMatchObject({ state: 'delivered', lastError: null });
    expect(redmine.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /issues.json',
      'POST /issues.json',
    ]);
    const history = await daemon.read((store) => store.listAttempts(create.id));
    expect(history.map((attempt) => attempt.outcome)).toEqual(['delivered', 'delivered']);
    expect(history[1]?.detail).toMatch(/^replay of a delivered delivery, sent as a create \(requests\.create\); /);

    const again = spawnCli(['replay', update.id], daemon.env);
    expect(await again.exited).toBe(0);
    await waitUntil(rows, (list) => byId(list, update.id)?.state === 'delivered', 15_000);
    expect(redmine.requests.at(-1)).toMatchObject({ method: 'PUT', url: '/issues/1001.json' });
    expect(redmine.issues.get(1001)?.notes).toEqual(['spreading']);
  }, 60_000);
}

describe('replaying the delivered create of a lifecycle target (SQLite)', () => {
  replayScenario(async (redmineUrl) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-replay-create-'));
    const daemon = await startTestDaemon(dir, { rules: redmineRules(redmineUrl) });
    return {
      url: daemon.url,
      env: { SWITCHYARD_CONFIG: `${dir}/switchyard.yaml` },
      read: reading(() => createSqliteStore({ path: daemon.dbPath })),
      close: async () => {
        await daemon.running.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describePostgres('replaying the delivered create of a lifecycle target (PostgreSQL)', () => {
  replayScenario(async (redmineUrl) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-replay-create-'));
    const journal = await tempPostgresJournal();
    const daemon = await startPostgresDaemon(dir, {
      databaseUrl: testDatabaseUrl,
      schema: journal.schema,
      rules: redmineRules(redmineUrl),
    });
    return {
      url: daemon.url,
      env: { SWITCHYARD_CONFIG: `${dir}/switchyard.yaml`, DATABASE_URL: testDatabaseUrl },
      read: reading(() => journal.openWith({})),
      close: async () => {
        await daemon.running.close();
        await journal.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
