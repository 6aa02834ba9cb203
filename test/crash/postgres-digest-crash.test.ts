import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';
import { serve, waitUntil } from './crash-checks.js';
import { useCrashCleanup } from './use-crash-cleanup.js';

const tempDir = useTempDirs();
const GROUPS = 5;
const PER_GROUP = 40;

describePostgres('PostgreSQL journal: digests with three instances, one killed with SIGKILL', () => {
  const { processes, cleanups } = useCrashCleanup();

  it('sends one digest per group, with every event of it, though the instance that received some was killed', async () => {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      `targets:\n  receiver: { type: http, url: "${receiver.url}/digests" }\nroutes:\n` +
        `  - { name: storm, group: { by: ["{{ data.rule }}"], wait: 20s, interval: 1m }, to: [receiver] }\n`,
    );
    const store = `{ postgres: { url: "\${DATABASE_URL}", schema: ${journal.schema}, pool_size: 4 } }`;
    const configs = ['a', 'b', 'c'].map((name) => {
      const file = path.join(dir, `${name}.yaml`);
      writeFileSync(
        file,
        `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: ${store}\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\n`,
      );
      return file;
    });
    const env = { MONITOR_SECRET: SOURCE_SECRET, DATABASE_URL: testDatabaseUrl };
    const [a, b, c] = await Promise.all(configs.map((config) => serve(config, env, processes)));
    if (a === undefined || b === undefined || c === undefined) throw new Error('three instances expected');

    const acked: string[] = [];
    const instances = [a, b, c];
    for (let i = 0; i < GROUPS * PER_GROUP; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, async (_, j) => {
          const n = i + j;
          const body = envelope('threat.detected', { rule: `rule-${n % GROUPS}`, title: `event ${n}` });
          const answer = await postWebhook(instances[n % 3]!.url, body, { secret: SOURCE_SECRET });
          expect(answer.status).toBe(200);
          acked.push(answer.body.id as string);
        }),
      );
    }
    // The instance that received a third of every group dies before any digest is due (20 s leaves room for
    // posting on a busy machine: a digest due before its group is complete would be split in two).
    a.cli.child.kill('SIGKILL');
    expect(await a.cli.exited).toBe('SIGKILL');

    await receiver.waitForRequests(GROUPS, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // time for a second send, should there be one
    expect(receiver.requests).toHaveLength(GROUPS);
    const digests = receiver.requests.map(
      (r) => JSON.parse(r.body.toString('utf8')) as { group: { key: string; count: number; event_ids: string[] } },
    );
    expect(digests.map((d) => d.group.key).sort()).toEqual(Array.from({ length: GROUPS }, (_, g) => `rule-${g}`));
    expect(digests.every((d) => d.group.count === PER_GROUP)).toBe(true);
    const traced = digests.flatMap((d) => d.group.event_ids);
    expect(traced.sort()).toEqual([...acked].sort());
    const opened = await journal.open();
    cleanups.push(() => opened.close());
    await waitUntil(
      () => opened.findDeliveries({ state: 'pending', limit: 10 }),
      (rows) => rows.length === 0,
      10_000,
    );
  }, 150_000);
});
