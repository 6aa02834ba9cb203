import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runDeliveries } from '../../src/cli/deliveries-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { T0, makeIngestItem } from '../store/make-ingest-item.js';

const tempDir = useTempDirs();

it('switchyard deliveries shows what a delivery waits behind: a dead delivery of its key, to replay', async () => {
  const dir = tempDir();
  const config = path.join(dir, 'switchyard.yaml');
  writeFileSync(
    config,
    'store: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
  );
  const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
  try {
    await store.migrate();
    await store.ingest(
      [0, 1].map((i) => ({ ...makeIngestItem({ receivedAt: T0 + i, targets: ['tickets'] }), keys: ['inc_1'] })),
    );
    const [first] = await store.claimDue({ target: 'tickets', now: T0 + 10, limit: 5, leaseMs: 60_000 });
    if (first === undefined) throw new Error('nothing claimed');
    await store.recordAttempts([
      {
        deliveryId: first.delivery.id,
        claimToken: first.claimToken,
        attempt: { startedAt: T0 + 20, durationMs: 1, outcome: 'dead', statusCode: 400, detail: 'HTTP 400' },
        next: { state: 'dead', nextAttemptAt: T0 + 20, lastError: 'HTTP 400' },
      },
    ]);
  } finally {
    await store.close();
  }

  const table = fakeCliIo(dir);
  const code = await runDeliveries(['--config', config, '--state', 'pending'], table);
  expect(table.err()).toBe('');
  expect(code).toBe(0);
  expect(table.out()).toContain('waiting for dlv_1 (dead: replay or skip it to go on)');
  const json = fakeCliIo(dir);
  expect(await runDeliveries(['--config', config, 'dlv_2', '--json'], json)).toBe(0);
  expect(JSON.parse(json.out())).toMatchObject({
    id: 'dlv_2',
    state: 'pending',
    correlationKey: 'inc_1',
    waitingFor: { id: 'dlv_1', state: 'dead' },
    waitingReason: 'waiting for dlv_1 (dead: replay or skip it to go on)',
  });
});
