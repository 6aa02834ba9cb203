import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { startDeduplicatingReceiver, type DeduplicatingReceiver } from '../helpers/start-deduplicating-receiver.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();

const rulesFor = (receiver: DeduplicatingReceiver) => `
targets:
  tickets:
    type: http
    url: "${receiver.url}/api/events"
routes:
  - name: everything
    to: [tickets]
`;

const EVENT = JSON.stringify({
  event: 'incident.created',
  timestamp: '2026-11-22T10:00:00Z',
  data: { incident_id: 'inc_1', severity: 'high', title: 'Ransomware' },
});

describe('replaying a delivered delivery to a receiver that deduplicates by Idempotency-Key', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function deliveries(daemon: TestDaemon): Promise<StoredDelivery[]> {
    const store = createSqliteStore({ path: daemon.dbPath });
    try {
      return await store.findDeliveries({});
    } finally {
      await store.close();
    }
  }

  it('is received as a new request (a new key per replay), and ATTEMPTS agrees with the history', async () => {
    const receiver = await startDeduplicatingReceiver();
    cleanups.push(() => receiver.close());
    const daemon = await startTestDaemon(tempDir(), { rules: rulesFor(receiver) });
    cleanups.push(() => daemon.running.close());
    const env = { SWITCHYARD_CONFIG: `${daemon.dir}/switchyard.yaml` };

    await postWebhook(daemon.url, EVENT, { secret: SOURCE_SECRET });
    const [delivered] = await waitFor(
      () => deliveries(daemon),
      (rows) => rows[0]?.state === 'delivered',
    );
    const id = delivered?.id as string;
    expect(receiver.accepted).toEqual([id]);

    // Without the flag: nothing is sent, and the user is told how to send it again.
    const refused = spawnCli(['replay', id], env);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain('add --include-delivered');

    for (const generation of [1, 2]) {
      const replay = spawnCli(['replay', id, '--include-delivered'], env);
      expect(await replay.exited).toBe(0);
      await waitFor(
        () => deliveries(daemon),
        (rows) => rows[0]?.state === 'delivered' && rows[0].attempts === generation + 1,
      );
      expect(receiver.keys.at(-1)).toBe(`${id}.r${generation}`);
    }
    // Each resend was processed, none dropped as a duplicate.
    expect(receiver.accepted).toEqual([id, `${id}.r1`, `${id}.r2`]);
    expect(receiver.keys).toHaveLength(3);

    const shown = spawnCli(['deliveries', id, '--json'], env);
    expect(await shown.exited).toBe(0);
    const listed = JSON.parse(shown.stdout()) as { attempts: number; history: unknown[] };
    expect(listed.history).toHaveLength(3);
    expect(listed.attempts).toBe(listed.history.length);
  }, 60_000);
});
