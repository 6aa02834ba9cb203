import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { DAY_MS, makeIngestItem } from '../store/make-ingest-item.js';
import { finishDeliveries } from '../store/retention-store-contract.js';

const tempDir = useTempDirs();

describe('daemon retention', () => {
  const daemons: TestDaemon[] = [];
  afterEach(async () => {
    for (const daemon of daemons.splice(0)) await daemon.running.close();
  });

  it('prunes old finished events in the background after start, and leaves pending ones', async () => {
    const dir = tempDir();
    const old = Date.now() - 40 * DAY_MS;
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    await store.migrate();
    await store.ingest(Array.from({ length: 5 }, (_, i) => makeIngestItem({ receivedAt: old + i, targets: ['done'] })));
    await finishDeliveries(store, 'done', 'delivered', old + DAY_MS);
    const pending = makeIngestItem({ receivedAt: old + 10, targets: ['tickets'] });
    await store.ingest([pending]);
    await store.close();

    const daemon = await startTestDaemon(dir, { config: 'retention: { events: 30d }', firstPruneAfterMs: 0 });
    daemons.push(daemon);
    for (let i = 0; i < 200 && !daemon.logs().some((l) => l.message === 'journal pruned'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(daemon.logs().find((l) => l.message === 'journal pruned')).toMatchObject({ events: 5, deliveries: 5 });
    expect(await daemon.counts()).toEqual({ events: 1, deliveries: 1 });
  });
});
