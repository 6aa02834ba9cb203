import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { forwardAllRules } from '../helpers/forward-all-rules.js';
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
  /** `switchyard serve` in `dir`, forwarding everything to the receiver; resolves with its port. */
  async function serve(dir: string, to: HttpReceiver, grace: string): Promise<{ server: SpawnedCli; port: number }> {
    writeFileSync(path.join(dir, 'rules.yaml'), forwardAllRules(`${to.url}/hook`, 'timeout: 2m'));
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\nshutdown_grace: ${grace}\n`,
    );
    const server = spawnCli(['serve', '--config', path.join(dir, 'switchyard.yaml')], {
      MONITOR_SECRET: SOURCE_SECRET,
    });
    cli = server;
    return { server, port: (JSON.parse(await server.waitFor('switchyard listening')) as { port: number }).port };
  }

  it('lets a quick attempt finish, gives a slow one back after shutdown_grace, and exits 0 losing nothing', async () => {
    receiver = await startHttpReceiver({ answers: [{ delayMs: 300 }, { delayMs: 60_000 }] });
    const dir = tempDir();
    const { server, port } = await serve(dir, receiver, '1s');
    for (const n of [1, 2]) {
      const body = JSON.stringify({ event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { n } });
      expect((await postWebhook(`http://127.0.0.1:${port}`, body, { secret: SOURCE_SECRET })).status).toBe(200);
    }
    await receiver.waitForRequests(2);

    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // It waited for the grace period (the slow attempt), not for the 60 s answer.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(server.stdout()).toContain('attempt interrupted by shutdown; it will be tried again');

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
    const { server, port } = await serve(dir, receiver, '1m');
    const body = JSON.stringify({ event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { n: 1 } });
    expect((await postWebhook(`http://127.0.0.1:${port}`, body, { secret: SOURCE_SECRET })).status).toBe(200);
    await receiver.waitForRequests(1);

    server.child.kill('SIGTERM');
    await server.waitFor('shutting down');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    const rows = await store.findDeliveries({}).finally(() => store.close());
    expect(rows.map((d) => d.state)).toEqual(['pending']);
  }, 40_000);
});
