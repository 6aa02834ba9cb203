import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
let receiver: HttpReceiver | undefined;
afterEach(async () => {
  await daemon?.running.close();
  await receiver?.close();
  daemon = undefined;
  receiver = undefined;
});

describe('digests in a running daemon', () => {
  it('500 events of one group are one Slack message with the right counts, and each is traced to it', async () => {
    const r = (receiver = await startHttpReceiver());
    const clock = manualClock(Date.parse('2026-11-24T10:00:00Z'));
    const rules = `
targets:
  soc-slack: { type: slack, webhook_url: "${r.url}/services/T0/B0/x" }
routes:
  - name: storm
    match: { event: "threat.*" }
    group: { by: ["{{ data.rule }}"], wait: 30s, interval: 5m, max_events: 100 }
    to: [soc-slack]
`;
    const d = (daemon = await startTestDaemon(tempDir(), { rules, clock, digestSendMs: 20 }));
    for (let start = 0; start < 500; start += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const body = envelope('threat.detected', {
            rule: 'brute-force',
            title: `Login burst ${start + i}`,
            host: 'vpn-1',
          });
          expect((await postWebhook(d.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.requests).toHaveLength(0); // not before `wait`
    clock.advance(30_000);
    const [message] = await r.waitForRequests(1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(1);
    const slack = JSON.parse(message?.body.toString('utf8') ?? '{}') as {
      text: string;
      blocks: { text?: { text: string } }[];
    };
    expect(slack.text).toBe(':package: 500 events grouped by storm: brute-force');
    const list = slack.blocks[1]?.text?.text ?? '';
    expect(list.split('\n')).toHaveLength(21);
    expect(list).toContain('• threat.detected: Login burst');
    expect(list).toContain('_and 480 more_');

    const store = createSqliteStore({ path: d.dbPath });
    try {
      const grouped = await store.findDeliveries({ state: 'grouped', limit: 1_000 });
      expect(grouped).toHaveLength(500);
      const digestId = grouped[0]?.heldBy ?? '';
      expect(grouped.every((x) => x.heldBy === digestId)).toBe(true);
      const [digestEvent] = await store.findEvents({ kind: 'switchyard.digest' });
      const body = JSON.parse((await store.getEvent(digestEvent?.id ?? ''))?.body.toString('utf8') ?? '{}') as {
        group: { count: number; omitted: number; event_ids: string[]; events: unknown[] };
        data: { digest_id: string };
      };
      expect(body.data.digest_id).toBe(digestId);
      expect([body.group.count, body.group.omitted, body.group.events.length]).toEqual([500, 400, 100]);
      expect(body.group.event_ids.every((id) => grouped.some((x) => x.eventId === id))).toBe(true);
      const [digestDelivery] = await store.listDeliveries(digestEvent?.id ?? '');
      expect(digestDelivery).toMatchObject({ target: 'soc-slack', state: 'delivered' });
    } finally {
      await store.close();
    }
  }, 60_000);
});
