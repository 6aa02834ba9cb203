import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
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

  it('keeps a silenced event through retention passes, and sends it when its silence ends', async () => {
    const receiver = await startHttpReceiver();
    try {
      const clock = manualClock(Date.parse('2026-11-24T10:00:00Z'));
      const rules = `
targets:
  tickets: { type: http, url: "${receiver.url}/events" }
routes:
  - { name: agents, match: { event: "agent.*" }, to: [tickets] }
`;
      const dir = tempDir();
      const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
      await store.migrate();
      await store.createSilence({
        id: 'sil_env',
        matchers: { where: [{ field: 'data.environment', equals: 'sil' }] },
        startsAt: clock.now(),
        endsAt: clock.now() + 3_600_000,
        comment: 'noisy environment',
        createdBy: 'alice',
        onExpiry: 'deliver_unresolved',
        createdAt: clock.now(),
        updatedAt: clock.now(),
        releasedAt: null,
      });
      await store.close();
      const config = 'dedupe_window: 1s\nretention: { events: 3s, interval: 1s }';
      const d = await startTestDaemon(dir, { rules, config, clock, firstPruneAfterMs: 0, silenceReleaseMs: 50 });
      daemons.push(d);
      const post = async (body: string) => (await postWebhook(d.url, body, { secret: SOURCE_SECRET })).status;
      expect(await post(envelope('agent.offline', { agent_id: 'a-1', environment: 'sil' }))).toBe(200);
      expect(await post(envelope('incident.created', { incident_id: 'inc_1' }))).toBe(200); // routed nowhere
      expect((await d.deliveries()).map((x) => x.state)).toEqual(['silenced']);

      clock.advance(65_000);
      const pruned = () => d.logs().filter((l) => l.message === 'journal pruned');
      for (let i = 0; i < 200 && pruned().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(pruned()).toMatchObject([{ events: 1, deliveries: 0 }]); // the unrouted event, not the silenced one
      expect(await d.counts()).toEqual({ events: 1, deliveries: 1 });

      clock.advance(3_600_000); // the silence ends: the releaser sends what it held
      const [sent] = await receiver.waitForRequests(1, 10_000);
      expect(JSON.parse(sent?.body.toString('utf8') ?? '{}')).toMatchObject({ data: { environment: 'sil' } });
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
