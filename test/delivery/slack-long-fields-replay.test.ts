import { afterEach, describe, expect, it } from 'vitest';
import { runReplay } from '../../src/cli/replay-command.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { startSlackStandIn } from '../helpers/start-slack-stand-in.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();

const RULES = `
targets:
  soc-slack:
    type: slack
    webhook_url: "\${TEST_SLACK_URL}"
    message:
      text: "{{ data.title }}"
      blocks:
        - type: header
          text: { type: plain_text, text: "{{ data.title }}" }
        - type: section
          text: { type: mrkdwn, text: "*{{ data.title }}*\\n{{ data.description }}" }
routes:
  - name: everything
    to: [soc-slack]
`;

describe('a Slack delivery with long fields, dead-lettered, then replayed (daemon, journal, replay command)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is delivered on replay, clipped, by a Slack stand-in that refuses over-limit blocks', async () => {
    const slack = await startSlackStandIn();
    cleanups.push(() => slack.close());
    const env = { TEST_SLACK_URL: `${slack.url}/services/T0/B0/hook` };
    const daemon = await startTestDaemon(tempDir(), { rules: RULES, env, random: () => 0 });
    cleanups.push(() => daemon.running.close());
    // The first attempt is dead-lettered for another reason (the webhook was off), as it was before clipping.
    slack.script({ status: 404, body: 'no_service' });
    const body = JSON.stringify({
      event: 'threat.detected',
      timestamp: '2026-11-22T10:00:00Z',
      data: { severity: 'high', title: '<'.repeat(1_000), description: 'd'.repeat(45_000) },
    });
    expect((await postWebhook(daemon.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
    const [dead] = await waitFor(
      () => daemon.deliveries(),
      (rows) => rows[0]?.state === 'dead',
      10_000,
    );

    // In process: the replay path is the same, and a spawned CLI is slow on a loaded machine.
    const io = fakeCliIo(daemon.dir, { SWITCHYARD_CONFIG: `${daemon.dir}/switchyard.yaml` });
    expect(await runReplay([dead?.id as string], io)).toBe(0);
    await slack.waitForRequests(2, 10_000);
    const [again] = await waitFor(
      () => daemon.deliveries(),
      (rows) => rows[0]?.state !== 'pending',
    );
    expect(again).toMatchObject({ id: dead?.id, state: 'delivered' });
    expect(slack.requests).toHaveLength(2);
    const posted = JSON.parse(slack.requests[1]!.body.toString('utf8')) as { blocks: { text: { text: string } }[] };
    expect(posted.blocks[0]?.text.text).toMatch(/^(&lt;)+…$/);
    expect(posted.blocks[1]?.text.text.length).toBeLessThanOrEqual(3_000);
  });
});
