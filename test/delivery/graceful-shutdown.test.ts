import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { spawnCli, type SpawnedCli } from '../helpers/spawn-cli.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('graceful shutdown (a real process, SIGTERM)', () => {
  let cli: SpawnedCli | undefined;
  let receiver: HttpReceiver | undefined;
  afterEach(async () => {
    if (cli?.child.exitCode === null) cli.child.kill('SIGKILL');
    await receiver?.close();
  });

  it('lets a quick attempt finish, gives a slow one back after shutdown_grace, and exits 0 losing nothing', async () => {
    receiver = await startHttpReceiver({ answers: [{ delayMs: 300 }, { delayMs: 60_000 }] });
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      `targets:\n  tickets: { type: http, url: "${receiver.url}/hook", timeout: 2m }\nroutes:\n  - { name: all, to: [tickets] }\n`,
    );
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\nshutdown_grace: 1s\n`,
    );
    cli = spawnCli(['serve', '--config', path.join(dir, 'switchyard.yaml')], { MONITOR_SECRET: SOURCE_SECRET });
    const port = (JSON.parse(await cli.waitFor('switchyard listening')) as { port: number }).port;
    for (const n of [1, 2]) {
      const body = JSON.stringify({ event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { n } });
      expect((await postWebhook(`http://127.0.0.1:${port}`, body, { secret: SOURCE_SECRET })).status).toBe(200);
    }
    await receiver.waitForRequests(2);

    const started = Date.now();
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    // It waited for the grace period (the slow attempt), not for the 60 s answer.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(cli.stdout()).toContain('attempt interrupted by shutdown; it will be tried again');

    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    const rows = await store.findDeliveries({}).finally(() => store.close());
    expect(rows.map((d) => [d.state, d.attempts])).toEqual([
      ['delivered', 1],
      ['pending', 0],
    ]);
  }, 40_000);

  it('exits at once with status 1 on a second signal, and the journal still has every accepted event', async () => {
    receiver = await startHttpReceiver({ default: { delayMs: 60_000 } });
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      `targets:\n  tickets: { type: http, url: "${receiver.url}/hook", timeout: 2m }\nroutes:\n  - { name: all, to: [tickets] }\n`,
    );
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\nshutdown_grace: 1m\n`,
    );
    cli = spawnCli(['serve', '--config', path.join(dir, 'switchyard.yaml')], { MONITOR_SECRET: SOURCE_SECRET });
    const port = (JSON.parse(await cli.waitFor('switchyard listening')) as { port: number }).port;
    const body = JSON.stringify({ event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { n: 1 } });
    expect((await postWebhook(`http://127.0.0.1:${port}`, body, { secret: SOURCE_SECRET })).status).toBe(200);
    await receiver.waitForRequests(1);

    cli.child.kill('SIGTERM');
    await cli.waitFor('shutting down');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(1);
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    const rows = await store.findDeliveries({}).finally(() => store.close());
    expect(rows.map((d) => d.state)).toEqual(['pending']);
  }, 40_000);
});
