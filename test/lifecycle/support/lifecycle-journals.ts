import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { CliCommand, CliIo } from '../../../src/cli/cli-io.js';
import { createSqliteStore } from '../../../src/store/sqlite/create-sqlite-store.js';
import type { Store, StoredDelivery } from '../../../src/store/store.js';
import { jiraLifecycleRules } from '../../helpers/jira-lifecycle.js';
import { postWebhook } from '../../helpers/post-webhook.js';
import { spawnCli } from '../../helpers/spawn-cli.js';
import { startJiraStandIn, type JiraStandIn } from '../../helpers/start-jira-stand-in.js';
import { startPostgresDaemon } from '../../helpers/start-postgres-daemon.js';
import { SOURCE_SECRET, startTestDaemon } from '../../helpers/start-test-daemon.js';
import { tempPostgresJournal, testDatabaseUrl } from '../../store/temp-postgres-journal.js';

/** A running daemon with a Jira lifecycle target `jira`, on one journal, and what a test does with it. */
export interface LifecycleDaemon {
  readonly stand: JiraStandIn;
  readonly url: string;
  /** Posts an event; expects 200; returns the event id. */
  post(body: string): Promise<string>;
  /** The real CLI, spawned, with the daemon's config. */
  cli(args: readonly string[]): Promise<{ code: number | string; out: string; err: string }>;
  /** A CLI command run in this process (as `main` runs it), with the daemon's config: for many quick calls. */
  run(command: CliCommand, args: readonly string[]): Promise<{ code: number; out: string; err: string }>;
  /** Every delivery, read through a store of the test's own. */
  deliveries(): Promise<StoredDelivery[]>;
  readonly store: Store;
}

export type JournalKind = 'sqlite' | 'postgres';

// Fast retries, and few attempts, so a 404 is dead-lettered at once and a 5xx does not linger.
const TARGET = ['concurrency: 4', 'retry: { initial_delay: 50ms, max_delay: 100ms, max_attempts: 3 }'];

/** Registers the cleanup and returns how to start a daemon with the Jira stand-in on either journal. */
export function useLifecycleDaemon(tempDir: () => string): (kind: JournalKind) => Promise<LifecycleDaemon> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (kind) => {
    const dir = tempDir();
    const stand = await startJiraStandIn();
    cleanups.push(() => stand.close());
    const rules = jiraLifecycleRules(stand.url, TARGET);
    let url: string;
    let store: Store;
    let env: Record<string, string> = {};
    if (kind === 'sqlite') {
      const daemon = await startTestDaemon(dir, { rules, random: () => 0 });
      cleanups.push(() => daemon.running.close());
      url = daemon.url;
      store = createSqliteStore({ path: daemon.dbPath });
    } else {
      const journal = await tempPostgresJournal();
      cleanups.push(() => journal.dispose());
      const daemon = await startPostgresDaemon(dir, { databaseUrl: testDatabaseUrl, schema: journal.schema, rules });
      cleanups.push(() => daemon.running.close());
      url = daemon.url;
      store = journal.openWith({});
      env = { DATABASE_URL: testDatabaseUrl };
    }
    cleanups.push(() => store.close());
    return {
      stand,
      url,
      store,
      async post(body) {
        const answer = await postWebhook(url, body, { secret: SOURCE_SECRET });
        expect(answer.status).toBe(200);
        return answer.body.id as string;
      },
      async cli(args) {
        const run = spawnCli([...args, '--config', path.join(dir, 'switchyard.yaml')], { USER: 'alice', ...env });
        return { code: await run.exited, out: run.stdout(), err: run.stderr() };
      },
      async run(command, args) {
        let out = '';
        let err = '';
        const io: CliIo = {
          stdout: (text) => (out += text),
          stderr: (text) => (err += text),
          env: { USER: 'alice', ...env },
          cwd: dir,
          readStdin: () => Promise.resolve(''),
        };
        const code = await command([...args, '--config', path.join(dir, 'switchyard.yaml')], io);
        return { code, out, err };
      },
      async deliveries() {
        return store.findDeliveries({ limit: 1000 });
      },
    };
  };
}
