import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { BOT_TOKEN, RATE_LIMITED, startSlackApiStandIn } from '../helpers/start-slack-api-stand-in.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from '../delivery/engine/engine-harness.js';

const tempDir = useTempDirs();

describe('Slack threads in a running daemon (issue 14; journal, Web API stand-in)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('several incidents, their events interleaved, end as one thread each, edited once when resolved', async () => {
    const slack = await startSlackApiStandIn();
    cleanups.push(() => slack.close());
    // Slack rate limits the very first call: the engine waits Retry-After, then goes on in order.
    slack.script(RATE_LIMITED(1));
    const daemon = await startTestDaemon(tempDir(), {
      rules: `
targets:
  soc:
    type: slack
    token: "\${SLACK_BOT_TOKEN}"
    channel: "#soc-alerts"
    base_url: "${slack.url}/api/"
    concurrency: 4
    rate_limit: { per_second: 100, burst: 100 }
routes:
  - { name: all, to: [soc] }
`,
      env: { SLACK_BOT_TOKEN: BOT_TOKEN },
      random: () => 0,
    });
    cleanups.push(() => daemon.running.close());

    const incidents = ['inc_1', 'inc_2', 'inc_3'];
    const steps: [string, string | null][] = [
      ['incident.created', 'low'],
      ['incident.updated', 'medium'],
      ['incident.updated', 'critical'],
      ['incident.resolved', null],
    ];
    for (const [kind, severity] of steps) {
      for (const id of incidents) {
        const data = { incident_id: id, title: `${id} ${kind}`, ...(severity === null ? {} : { severity }) };
        const answer = await postWebhook(daemon.url, envelope(kind, data), { secret: SOURCE_SECRET });
        expect(answer.status).toBe(200);
      }
    }
    // Per incident: the parent, two replies, and on resolve an edit and a reply; plus the rate-limited call.
    await slack.waitForRequests(1 + incidents.length * 5, 20_000);
    const rows = await waitFor(
      () => daemon.deliveries(),
      (list) => list.length === 12 && list.every((row) => row.state === 'delivered'),
      10_000,
    );
    expect(rows).toHaveLength(12);

    const parents = slack.messages.filter((message) => message.threadTs === undefined);
    expect(parents.map((parent) => parent.text).sort()).toEqual(
      incidents.map((id) => `:white_check_mark: ${id} incident.resolved`),
    );
    for (const parent of parents) {
      const id = /inc_\d/.exec(parent.text)?.[0] ?? '';
      expect(parent.edits).toBe(1);
      expect(slack.replies(parent.ts).map((reply) => [reply.text, reply.broadcast])).toEqual([
        [`:large_orange_circle: ${id} incident.updated`, false],
        [`:rotating_light: ${id} incident.updated`, true],
        [`:white_check_mark: ${id} incident.resolved`, false],
      ]);
    }
    expect(slack.messages).toHaveLength(incidents.length * 4);

    const db = new Database(daemon.dbPath, { readonly: true });
    cleanups.push(async () => db.close());
    const stored = JSON.stringify([
      db.prepare('SELECT * FROM attempts').all(),
      db.prepare('SELECT * FROM deliveries').all(),
    ]);
    expect(stored).toContain('ratelimited');
    expect(stored).not.toContain(BOT_TOKEN);
    expect(daemon.rawLogs()).not.toContain(BOT_TOKEN);
  }, 40_000);
});
