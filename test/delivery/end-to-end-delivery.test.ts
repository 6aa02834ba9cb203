import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runDeliveries } from '../../src/cli/deliveries-command.js';
import { runReplay } from '../../src/cli/replay-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();

const rulesFor = (receiver: HttpReceiver) => `
targets:
  tickets:
    type: http
    url: "${receiver.url}/api/events"
    retry: { max_attempts: 5 }
routes:
  - name: everything
    to: [tickets]
`;

function event(n: number): string {
  return JSON.stringify({
    event: 'incident.created',
    timestamp: '2026-11-22T10:00:00Z',
    data: { incident_id: `inc_${n}`, severity: 'high', title: `Incident "${n}"\n` },
  });
}

/** The CLI's io, in-process: commands are tested without spawning where no real process is the point. */
function captureIo(env: Record<string, string>, cwd: string): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    env,
    cwd,
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    readStdin: () => Promise.resolve(''),
    out: () => out,
    err: () => err,
  };
}

describe('delivery end to end (daemon, journal, real HTTP receiver, CLI)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function setup(): Promise<{ receiver: HttpReceiver; daemon: TestDaemon }> {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    // `delivered` is logged per delivery, at debug (issue 11).
    const daemon = await startTestDaemon(dir, {
      rules: rulesFor(receiver),
      random: () => 0,
      env: { SWITCHYARD_LOG_LEVEL: 'debug' },
    });
    cleanups.push(() => daemon.running.close());
    return { receiver, daemon };
  }
  const deliveries = (daemon: TestDaemon): Promise<StoredDelivery[]> => daemon.deliveries();

  it('forwards the exact bytes received, with the delivery id as Idempotency-Key, through an outage', async () => {
    const { receiver, daemon } = await setup();
    receiver.script({ status: 503 }, { status: 502 });
    const body = event(1);
    const answer = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    expect(answer.status).toBe(200);

    const requests = await receiver.waitForRequests(3);
    const [delivered] = await waitFor(
      () => deliveries(daemon),
      (rows) => rows[0]?.state === 'delivered',
    );
    expect(delivered?.attempts).toBe(3);
    for (const request of requests) {
      expect(request.body.toString('utf8')).toBe(body);
      expect(request.headers['idempotency-key']).toBe(delivered?.id);
      expect(request.headers['content-type']).toBe('application/json');
    }
    expect(daemon.logs().filter((line) => line.message === 'delivered')).toHaveLength(1);
  });

  it('delivers to Slack through an outage and a 429 with Retry-After, and dead-letters an archived channel', async () => {
    const slack = await startHttpReceiver();
    cleanups.push(() => slack.close());
    const rules = `
targets:
  chat: { type: slack, webhook_url: "${slack.url}/services/T1/B1/x" }
routes:
  - { name: all, to: [chat] }
`;
    const daemon = await startTestDaemon(tempDir(), { rules, random: () => 0 });
    cleanups.push(() => daemon.running.close());
    slack.script(
      { status: 500, body: 'rollup_error' },
      { status: 429, headers: { 'retry-after': '1' }, body: 'rate_limited' },
      { status: 200, body: 'ok' },
      { status: 410, body: 'channel_is_archived' },
    );
    await postWebhook(daemon.url, event(10), { secret: SOURCE_SECRET });
    const [delivered] = await waitFor(
      () => deliveries(daemon),
      (rows) => rows[0]?.state === 'delivered',
      10_000,
    );
    expect(delivered?.attempts).toBe(3);
    const store = createSqliteStore({ path: daemon.dbPath });
    const history = await store.listAttempts(delivered?.id as string).finally(() => store.close());
    expect(history.map((a) => [a.outcome, a.statusCode])).toEqual([
      ['retry', 500],
      ['retry', 429],
      ['delivered', 200],
    ]);
    // Retry-After: 1 was honoured (random 0 would otherwise retry at once).
    expect((history[2]?.startedAt ?? 0) - (history[1]?.startedAt ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(JSON.parse(slack.requests[2]?.body.toString() ?? '{}')).toMatchObject({ text: expect.any(String) });

    await postWebhook(daemon.url, event(11), { secret: SOURCE_SECRET });
    const rows = await waitFor(
      () => deliveries(daemon),
      (r) => r[1]?.state === 'dead',
      10_000,
    );
    expect(rows[1]).toMatchObject({ attempts: 1, lastError: expect.stringContaining('channel_is_archived') });
  });

  it('dead-letters a permanent failure; `deliveries` lists it and `replay` re-queues it to the running daemon', async () => {
    const { receiver, daemon } = await setup();
    receiver.script({ status: 400, body: 'bad request: missing field summary' });
    await postWebhook(daemon.url, event(2), { secret: SOURCE_SECRET });
    const [dead] = await waitFor(
      () => deliveries(daemon),
      (rows) => rows[0]?.state === 'dead',
    );
    expect(receiver.requests).toHaveLength(1);
    const env = { SWITCHYARD_CONFIG: `${daemon.dir}/switchyard.yaml` };

    const listed = spawnCli(['deliveries', '--state', 'dead', '--target', 'tickets'], env);
    expect(await listed.exited).toBe(0);
    expect(listed.stdout()).toMatch(
      new RegExp(`${dead?.id}\\s+${dead?.eventId}\\s+incident\\.created\\s+high\\s+.*\\s+tickets\\s+dead\\s+1`),
    );
    expect(listed.stdout()).toContain('HTTP 400');

    const shown = spawnCli(['deliveries', dead?.id as string, '--json'], env);
    expect(await shown.exited).toBe(0);
    expect(JSON.parse(shown.stdout())).toMatchObject({
      id: dead?.id,
      state: 'dead',
      history: [{ number: 1, outcome: 'dead', statusCode: 400 }],
    });

    const replay = spawnCli(['replay', dead?.id as string], env);
    expect(await replay.exited).toBe(0);
    expect(replay.stdout()).toBe(`re-queued 1 deliveries: ${dead?.id}\n`);
    await receiver.waitForRequests(2);
    const [again] = await waitFor(
      () => deliveries(daemon),
      (rows) => rows[0]?.state === 'delivered',
    );
    // The count shown agrees with the history: the dead attempt and the replayed one.
    expect(again).toMatchObject({ id: dead?.id, attempts: 2 });
  }, 60_000); // four CLI processes, each a tsx start: seconds apiece on a loaded machine

  it('refuses CLI misuse with exit 2 and changes nothing', async () => {
    const { daemon } = await setup();
    const env = { SWITCHYARD_CONFIG: `${daemon.dir}/switchyard.yaml` };
    const cases: [string[], RegExp][] = [
      [['replay'], /name deliveries by id or narrow them/],
      [['replay', 'dlv_1', '--target', 'x'], /either delivery ids or filters/],
      [['replay', '--state', 'pending'], /already queued/],
      [['deliveries', '--state', 'lost'], /--state must be one of/],
      [['deliveries', '--since', 'yesterday'], /is not a date-time, a date or a duration/],
      [['deliveries', '--limit', '0'], /--limit must be a positive integer/],
    ];
    for (const [[command, ...args], message] of cases) {
      const io = captureIo(env, daemon.dir);
      const run = command === 'replay' ? runReplay : runDeliveries;
      expect(await run(args, io), `${command} ${args.join(' ')}`).toBe(2);
      expect(io.err()).toMatch(message);
    }
    const io = captureIo({ SWITCHYARD_CONFIG: `${daemon.dir}/nope.yaml` }, daemon.dir);
    expect(await runDeliveries([], io)).toBe(1);
    expect(io.err()).toContain('invalid_config: cannot read config file');
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
  });
});
