import { linkSync, mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliCommand } from '../../src/cli/cli-io.js';
import { hashApiKey } from '../../src/admin/api/hash-api-key.js';
import { runDeliveries } from '../../src/cli/deliveries-command.js';
import { runDoctor } from '../../src/cli/doctor-command.js';
import { runMigrate } from '../../src/cli/migrate-command.js';
import { runReplay } from '../../src/cli/replay-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { serve, writeDaemonConfig } from '../crash/crash-checks.js';
import { useCrashCleanup } from '../crash/use-crash-cleanup.js';
import { waitFor } from '../delivery/engine/engine-harness.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { spawnCli, type SpawnedCli } from '../helpers/spawn-cli.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const tempDir = useTempDirs();

/** Runs a CLI command in this process, beside the daemon's: the same code as the binary, without a second tsx start. */
async function cli(command: CliCommand, cwd: string, args: string[]) {
  const io = fakeCliIo(cwd, env);
  const code = await command(args, io);
  return { code, out: io.out(), err: io.err() };
}
const env = { MONITOR_SECRET: SOURCE_SECRET };
const event = JSON.stringify({
  event: 'incident.created',
  timestamp: '2026-11-22T10:00:00Z',
  data: { incident_id: 'inc_1' },
});

describe('one daemon per SQLite journal (real processes)', () => {
  const { processes, cleanups } = useCrashCleanup();
  function run(args: string[]): SpawnedCli {
    const cli = spawnCli(args, env);
    processes.push(cli);
    return cli;
  }
  async function deliveries(journal: string): Promise<StoredDelivery[]> {
    const store = createSqliteStore({ path: journal });
    try {
      return await store.findDeliveries({});
    } finally {
      await store.close();
    }
  }

  it('refuses a second daemon naming the journal and the holder, resends nothing, and lets a killed one restart', async () => {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    const journal = path.join(dir, 'journal.db');
    const config = writeDaemonConfig(dir, {
      name: 'switchyard',
      targetUrl: `${receiver.url}/hook`,
      target: 'timeout: 60s',
      store: '{ sqlite: { path: ./journal.db } }',
    });

    // The first daemon's delivery is in flight: the receiver holds its answer.
    receiver.script({ delayMs: 60_000 });
    const first = await serve(config, env, processes);
    expect((await postWebhook(first.url, event, { secret: SOURCE_SECRET })).status).toBe(200);
    await receiver.waitForRequests(1, 10_000);

    const second = run(['serve', '--config', config]);
    const outcome = await Promise.race([
      second.exited.then((code) => ({ code })),
      second.waitFor('switchyard listening').then(() => ({ code: 'listening' })),
    ]);
    expect(outcome).toEqual({ code: 1 });
    expect(second.stderr()).toContain(`journal_locked: the journal ${journal} is in use by another switchyard daemon`);
    expect(second.stderr()).toContain(`pid ${String(first.cli.child.pid)} on host `);
    // The in-flight delivery is still the first daemon's, and was sent once.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.requests).toHaveLength(1);
    const [inFlight] = await deliveries(journal);
    expect(inFlight).toMatchObject({ state: 'pending', attempts: 0 });

    // The CLI works beside the running daemon: it reads, checks, migrates nothing and (below) re-queues.
    const listed = await cli(runDeliveries, dir, ['--config', config, '--json']);
    expect(listed).toMatchObject({ code: 0, err: '' });
    expect(listed.out).toContain(inFlight?.id);
    const checked = await cli(runDoctor, dir, ['--config', config]);
    expect(checked).toMatchObject({ code: 0, err: '' });
    expect(checked.out).toMatch(/OK\s+journal\s+.*journal\.db: writable/);
    const migrated = await cli(runMigrate, dir, ['--config', config]);
    expect(migrated).toMatchObject({ code: 0, err: '' });
    expect(migrated.out).toContain('already current');

    // Killed with SIGKILL, the first daemon leaves no lock behind: the restart starts at once and, being
    // the only daemon, retries what was in flight.
    first.cli.child.kill('SIGKILL');
    await first.cli.exited;
    const restarted = await serve(config, env, processes);
    await receiver.waitForRequests(2, 10_000);
    await waitFor(
      () => deliveries(journal),
      (rows) => rows[0]?.state === 'delivered',
      10_000,
    );
    expect(await cli(runReplay, dir, ['--config', config, '--include-delivered', inFlight?.id ?? ''])).toMatchObject({
      code: 0,
      err: '',
    });
    await receiver.waitForRequests(3, 10_000);
    expect(restarted.cli.child.exitCode).toBeNull();
  }, 60_000);

  it('refuses a second daemon on a hard link to the journal in another folder, and it takes nothing of the first one', async () => {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    mkdirSync(path.join(dir, 'a'));
    const journal = path.join(dir, 'a', 'journal.db');
    const target = { targetUrl: `${receiver.url}/hook`, target: 'timeout: 60s' };
    const config = writeDaemonConfig(dir, { name: 'first', ...target, store: '{ sqlite: { path: ./a/journal.db } }' });
    receiver.script({ delayMs: 60_000 });
    const first = await serve(config, env, processes);
    expect((await postWebhook(first.url, event, { secret: SOURCE_SECRET })).status).toBe(200);
    await receiver.waitForRequests(1, 10_000);

    linkSync(journal, path.join(dir, 'b.db'));
    const linked = writeDaemonConfig(dir, { name: 'second', ...target, store: '{ sqlite: { path: ./b.db } }' });
    const second = run(['serve', '--config', linked]);
    const outcome = await Promise.race([
      second.exited.then((code) => ({ code })),
      second.waitFor('switchyard listening').then(() => ({ code: 'listening' })),
    ]);
    expect(outcome).toEqual({ code: 1 });
    expect(second.stderr()).toContain(
      `journal_locked: the journal ${path.join(dir, 'b.db')} is in use by another switchyard daemon that opened it by another name`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.requests).toHaveLength(1);
    expect(await deliveries(journal)).toMatchObject([{ state: 'pending', attempts: 0 }]);
    expect(first.cli.child.exitCode).toBeNull();
  }, 60_000);

  it('refuses a second daemon in the same process too, storing nothing and leaving the first one serving', async () => {
    const dir = tempDir();
    const first = await startTestDaemon(dir);
    try {
      expect((await postWebhook(first.url, event, { secret: SOURCE_SECRET })).status).toBe(200);
      const before = await first.counts();
      const refused = startTestDaemon(dir);
      await expect(refused).rejects.toMatchObject({ code: 'journal_locked', where: `${first.dbPath}.lock` });
      await expect(refused).rejects.toThrow(`(pid ${process.pid} on host `);
      expect(await first.counts()).toEqual(before);
      expect((await postWebhook(first.url, event.replace('inc_1', 'inc_2'), { secret: SOURCE_SECRET })).status).toBe(
        200,
      );
    } finally {
      await first.running.close();
    }
    // A daemon that stopped cleanly gives the journal up.
    const again = await startTestDaemon(dir);
    await again.running.close();
  });

  it('warns at start when the journal file has a second name, whose WAL would be a different one', async () => {
    const dir = tempDir();
    const first = await startTestDaemon(dir);
    await first.running.close();
    linkSync(first.dbPath, path.join(dir, 'copy.db'));
    const again = await startTestDaemon(dir);
    await again.running.close();
    expect(again.logs().filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('the journal file has 2 hard links: open it by this name only'),
        journal: again.dbPath,
      }),
    ]);
  });

  it('gives the journal up when a start fails after taking it (the admin port is taken), so the next start succeeds', async () => {
    const dir = tempDir();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const config = `admin: { listen: { host: 127.0.0.1, port: ${port} }, keys: [{ name: ops, hash: "${hashApiKey('sy_test-key-0123456789abcdef')}", scopes: [read] }] }`;
      await expect(startTestDaemon(dir, { config })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    const again = await startTestDaemon(dir);
    await again.running.close();
  });
});
