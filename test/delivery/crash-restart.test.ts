import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { spawnCli, type SpawnedCli } from '../helpers/spawn-cli.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();

/** A config and rules in `dir` delivering every event to the receiver. */
function writeSetup(dir: string, receiver: HttpReceiver): string {
  writeFileSync(
    path.join(dir, 'rules.yaml'),
    `targets:\n  tickets: { type: http, url: "${receiver.url}/hook", timeout: 30s }\nroutes:\n  - { name: all, to: [tickets] }\n`,
  );
  const file = path.join(dir, 'switchyard.yaml');
  writeFileSync(
    file,
    `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\n`,
  );
  return file;
}

const body = (n: number) =>
  JSON.stringify({ event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { incident_id: `inc_${n}` } });

describe('delivery across a crash (real process killed with SIGKILL, then restarted)', () => {
  const processes: SpawnedCli[] = [];
  const receivers: HttpReceiver[] = [];
  afterEach(async () => {
    for (const cli of processes.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    for (const receiver of receivers.splice(0)) await receiver.close();
  });
  async function serve(config: string): Promise<{ cli: SpawnedCli; url: string }> {
    const cli = spawnCli(['serve', '--config', config], { MONITOR_SECRET: SOURCE_SECRET });
    processes.push(cli);
    const line = await cli.waitFor('switchyard listening');
    return { cli, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}` };
  }
  async function deliveries(dir: string): Promise<StoredDelivery[]> {
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    try {
      return await store.findDeliveries({});
    } finally {
      await store.close();
    }
  }

  it('resumes the retry schedule, retries what was in flight, and never resends what was acknowledged', async () => {
    const receiver = await startHttpReceiver();
    receivers.push(receiver);
    const dir = tempDir();
    const config = writeSetup(dir, receiver);
    const first = await serve(config);

    // Five events delivered and recorded before the crash.
    for (let n = 1; n <= 5; n++)
      expect((await postWebhook(first.url, body(n), { secret: SOURCE_SECRET })).status).toBe(200);
    await waitFor(
      () => deliveries(dir),
      (rows) => rows.length === 5 && rows.every((d) => d.state === 'delivered'),
      10_000,
    );

    // One in flight (the receiver is slow), then one in the middle of its retry schedule (503 with
    // Retry-After: 5, which also pauses the target; the kill lands right after it is recorded). 5 s, not
    // less: a restart takes 2-3 s here, and the retry must still be ahead of it for the schedule to be tested.
    receiver.script({ delayMs: 60_000 }, { status: 503, headers: { 'retry-after': '5' } });
    await postWebhook(first.url, body(6), { secret: SOURCE_SECRET });
    await receiver.waitForRequests(6, 10_000);
    await postWebhook(first.url, body(7), { secret: SOURCE_SECRET });
    await waitFor(
      () => deliveries(dir),
      (rows) => rows[6]?.attempts === 1,
      10_000,
    );
    first.cli.child.kill('SIGKILL');
    expect(await first.cli.exited).toBe('SIGKILL');
    const [, , , , , inFlight, retrying] = await deliveries(dir);
    expect(retrying).toMatchObject({ state: 'pending', attempts: 1, lastError: expect.stringContaining('503') });
    expect(inFlight).toMatchObject({ state: 'pending', attempts: 0 });
    // When the journal says the retry is due (about 5 s after the 503, from its Retry-After); the restart
    // must keep to it rather than treat everything pending as due at once.
    const retryDueAt = retrying?.nextAttemptAt ?? Number.NaN;
    expect(retryDueAt).toBeGreaterThan(retrying?.updatedAt ?? Number.POSITIVE_INFINITY);

    receiver.setDefault({ status: 200 });
    const second = await serve(config);
    const rows = await waitFor(
      () => deliveries(dir),
      (r) => r.every((d) => d.state === 'delivered'),
      15_000,
    );
    expect(rows.map((d) => d.attempts)).toEqual([1, 1, 1, 1, 1, 1, 2]);
    // Each acknowledged event reached the receiver once; the one in flight at the kill twice (at least once).
    const perEvent = (n: number) => receiver.requests.filter((r) => r.body.toString() === body(n)).length;
    expect([1, 2, 3, 4, 5, 6, 7].map(perEvent)).toEqual([1, 1, 1, 1, 1, 2, 2]);
    // The retry after the restart went out no earlier than its stored schedule (a correctness bound: the
    // daemon and the receiver read the same clock, and the engine only claims deliveries whose time has come).
    const retried = receiver.requests.filter((r) => r.body.toString() === body(7))[1];
    expect(retried?.receivedAt).toBeGreaterThanOrEqual(retryDueAt);
    expect(second.cli.stdout()).toContain('deliveries left in flight by a previous run are due again');
    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).toBe(0);
  }, 60_000);
});
