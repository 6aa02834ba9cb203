import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { serve } from './crash-checks.js';
import { useCrashCleanup } from './use-crash-cleanup.js';

const tempDir = useTempDirs();

describe('SQLite journal: throttles across a SIGKILL', () => {
  const { processes, cleanups } = useCrashCleanup();

  it('still knows what it let through and suppressed just before the kill (kept in memory, not yet written)', async () => {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      `targets:\n  tickets: { type: http, url: "${receiver.url}/tickets" }\nroutes:\n` +
        `  - { name: all, to: [tickets], throttle: { key: "{{ data.host }}", window: 10m, max: 2 } }\n`,
    );
    const config = path.join(dir, 'switchyard.yaml');
    writeFileSync(
      config,
      'listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\n' +
        'sources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
    );
    const env = { MONITOR_SECRET: SOURCE_SECRET };
    const post = async (url: string, host: string, n: number) => {
      const answer = await postWebhook(url, envelope('agent.offline', { host, n }), { secret: SOURCE_SECRET });
      expect(answer.status).toBe(200);
    };

    const first = await serve(config, env, processes);
    // The first event's group writes the throttle keys; the rest, well within 5 s, live only in memory and in
    // the deliveries table when the daemon dies.
    await post(first.url, 'db-1', 0);
    for (let n = 1; n < 6; n += 1) await post(first.url, n % 2 === 0 ? 'db-1' : 'db-2', n);
    first.cli.child.kill('SIGKILL');
    expect(await first.cli.exited).toBe('SIGKILL');

    const second = await serve(config, env, processes);
    await post(second.url, 'db-1', 6); // db-1 let 0 and 2 through: suppressed
    await post(second.url, 'db-2', 7); // db-2 let 1 and 3 through: suppressed
    await post(second.url, 'db-3', 8); // a new host: let through
    await receiver.waitForRequests(5, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Delivery is at least once: one sent just before the kill, its attempt not yet recorded, is sent again after
    // the restart. What counts is which events reached the receiver: the throttle let through these five only.
    const sent = receiver.requests.map((r) => (JSON.parse(r.body.toString('utf8')) as { data: { n: number } }).data.n);
    expect([...new Set(sent)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 8]);
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    cleanups.push(() => store.close());
    const deliveries = await store.findDeliveries({ limit: 100 });
    expect(deliveries.map((d) => d.state === 'suppressed')).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  }, 60_000);
});
