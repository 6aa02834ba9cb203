import { describe, expect, it } from 'vitest';
import { ACTIVITY_SUMMARY } from '../../src/admin/log-activity-summary.js';
import { summarizeActivity, type ActivityTotals } from '../../src/admin/summarize-activity.js';
import { waitFor } from '../delivery/engine/engine-harness.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const zero: ActivityTotals = { received: 0, duplicates: 0, rejected: 0, delivered: 0, failed: 0, dead: 0, held: 0 };

describe('summarizeActivity', () => {
  it('says what happened between two readings of the totals, in whole seconds', () => {
    const before = { ...zero, received: 10, delivered: 8, held: 1 };
    const after = { received: 14, duplicates: 1, rejected: 2, delivered: 11, failed: 3, dead: 1, held: 2 };
    expect(summarizeActivity(before, after, 60.4)).toEqual({
      seconds: 60,
      received: 4,
      duplicates: 1,
      rejected: 2,
      delivered: 3,
      failed: 3,
      dead: 1,
      held: 1,
    });
  });

  it('is undefined when nothing happened, and a single count is enough to say something', () => {
    expect(summarizeActivity(zero, zero, 60)).toBeUndefined();
    const busy = { ...zero, received: 7, delivered: 7 };
    expect(summarizeActivity(busy, busy, 60)).toBeUndefined();
    expect(summarizeActivity(busy, { ...busy, dead: 1 }, 60)).toMatchObject({ dead: 1, received: 0 });
  });
});

describe('the activity summary in the daemon log', () => {
  it('logs what came in and went out at info, no line per event, and nothing while idle', async () => {
    const receiver = await startHttpReceiver();
    const dir = tempDir();
    const rules = `targets:\n  hook: { type: http, url: "${receiver.url}/hook" }\nroutes:\n  - { name: all, to: [hook] }\n`;
    const daemon = await startTestDaemon(dir, { rules, activitySummaryMs: 200 });
    try {
      const event = envelope('agent.offline', { hostname: 'db-1' });
      expect((await postWebhook(daemon.url, event, { secret: SOURCE_SECRET })).status).toBe(200);
      expect((await postWebhook(daemon.url, event, { secret: SOURCE_SECRET })).body).toMatchObject({ duplicate: true });
      expect((await postWebhook(daemon.url, event, { secret: 'wrong-secret' })).status).toBe(401);
      await receiver.waitForRequests(1, 10_000);

      const summaries = () => daemon.logs().filter((line) => line.message === ACTIVITY_SUMMARY);
      const sum = (field: string) => summaries().reduce((total, line) => total + Number(line[field]), 0);
      await waitFor(
        async () => sum('delivered'),
        (delivered) => delivered === 1,
        10_000,
      );
      expect(summaries().every((line) => line.level === 'info')).toBe(true);
      expect(['received', 'duplicates', 'rejected', 'delivered', 'failed', 'dead', 'held'].map(sum)).toEqual([
        1, 1, 1, 1, 0, 0, 0,
      ]);
      // The event's own lines are at debug, which the default level (info) does not write.
      expect(daemon.logs().filter((line) => line.message === 'event received' || line.message === 'delivered')).toEqual(
        [],
      );

      const written = summaries().length;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(summaries()).toHaveLength(written);
    } finally {
      await daemon.running.close();
      await receiver.close();
    }
  });
});
