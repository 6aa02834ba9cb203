import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { waitUntil } from '../crash/crash-checks.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { startRedmineStandIn, type RedmineStandIn } from '../helpers/start-redmine-stand-in.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { redmineRules } from './support/redmine-rules.js';

const tempDir = useTempDirs();
const TOKEN = 'metrics-token-0123456789abcdef';
const reader = newApiKey();
let daemon: TestDaemon | undefined;
let stand: RedmineStandIn | undefined;
afterEach(async () => {
  await daemon?.running.close();
  await stand?.close();
  daemon = undefined;
  stand = undefined;
});

async function start(journalBytes = 0): Promise<{ d: TestDaemon; redmine: RedmineStandIn }> {
  stand = await startRedmineStandIn({ journalBytes });
  daemon = await startTestDaemon(tempDir(), {
    rules: redmineRules(stand.url),
    env: { SWITCHYARD_ADMIN_TOKEN: TOKEN },
    config: `admin:\n  listen: { port: 0 }\n  keys:\n    - { name: dashboard, hash: "${reader.hash}", scopes: [read] }`,
  });
  return { d: daemon, redmine: stand };
}

const post = async (d: TestDaemon, kind: string, data: Record<string, unknown>) =>
  expect((await postWebhook(d.url, envelope(kind, data), { secret: SOURCE_SECRET })).status).toBe(200);

const settled = (d: TestDaemon, count: number) =>
  waitUntil(
    () => d.deliveries(),
    (rows: StoredDelivery[]) => rows.length === count && rows.every((row) => row.state !== 'pending'),
    15_000,
    (rows) => JSON.stringify(rows.map((row) => [row.id, row.state, row.lastError])),
    100,
  );

describe('captures from a ticketing API that repeats the whole ticket in its answer (Redmine)', () => {
  it('captures the id from a create answer over 4 KiB, so the updates and the resolve reach the issue', async () => {
    const { d, redmine } = await start();
    // Redmine echoes the description: with the alert's evidence the answer is well over the 4 KiB excerpt.
    const description = `Process tree and evidence: ${'powershell -enc AAAA '.repeat(400)}`;
    await post(d, 'incident.created', { incident_id: 'inc_1', title: 'Ransomware on db-1', description });
    await post(d, 'incident.updated', { incident_id: 'inc_1', title: 'spreading to db-2' });
    await post(d, 'incident.updated', { incident_id: 'inc_1', title: 'contained' });
    await post(d, 'incident.resolved', { incident_id: 'inc_1', title: 'fixed' });

    const rows = await settled(d, 4);
    expect(rows.map((row) => [row.state, row.lastError])).toEqual(Array(4).fill(['delivered', null]));
    expect(redmine.requests[0]?.url).toBe('/issues.json');
    expect(redmine.requests.map((request) => `${request.method} ${request.url}`).slice(1)).toEqual(
      Array(3).fill('PUT /issues/1000.json'),
    );
    expect([...redmine.issues.values()]).toEqual([
      {
        id: 1000,
        subject: 'Ransomware on db-1',
        description,
        notes: ['spreading to db-2', 'contained', 'resolved'],
        statusId: 5,
      },
    ]);
    expect(d.logs().filter((line) => line.message === 'capture missed')).toEqual([]);
  }, 30_000);

  it('an answer over the 1 MiB bound is a capture miss shown in the log, the listings and the metrics', async () => {
    const { d, redmine } = await start(1_100_000);
    await post(d, 'incident.created', { incident_id: 'inc_1', title: 'Ransomware on db-1' });
    await post(d, 'incident.updated', { incident_id: 'inc_1', title: 'spreading' });
    const [created, updated] = await settled(d, 2).then((rows) => [...rows].sort((a, b) => a.id.localeCompare(b.id)));
    const miss = 'capture missed: issue (the answer is over 1 MiB, more than captures read)';

    // The ticket exists: the create is delivered, with the miss as its warning.
    expect(created).toMatchObject({ state: 'delivered', lastError: miss });
    expect(updated).toMatchObject({ state: 'dead', lastError: expect.stringContaining('needs ref.issue') });
    expect(redmine.requests).toHaveLength(1);
    expect(d.logs()).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'capture missed',
        delivery: created?.id,
        target: 'redmine',
        detail: miss,
      }),
    );

    const admin = `http://127.0.0.1:${d.running.adminPort}/api/v1`;
    const listing = await fetch(`${admin}/deliveries?target=redmine`, {
      headers: { authorization: `Bearer ${reader.key}` },
    });
    const items = ((await listing.json()) as { items: { id: string; captureMiss: string | null }[] }).items;
    expect(items.map((item) => [item.id, item.captureMiss])).toEqual(
      expect.arrayContaining([
        [created?.id, miss],
        [updated?.id, null],
      ]),
    );

    const env = { SWITCHYARD_CONFIG: `${d.dir}/switchyard.yaml` };
    const table = spawnCli(['deliveries', '--target', 'redmine'], env);
    expect(await table.exited).toBe(0);
    const row = table
      .stdout()
      .split('\n')
      .find((line) => line.startsWith(`${created?.id} `));
    expect(row).toContain('delivered');
    expect(row).toContain(miss);

    const metrics = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(metrics).toContain('switchyard_capture_misses_total{target="redmine"} 1\n');
  }, 30_000);
});
