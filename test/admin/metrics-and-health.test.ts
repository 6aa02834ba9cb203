import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon, TEST_RULES, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const TOKEN = 'metrics-token-0123456789abcdef';
let daemon: TestDaemon | undefined;
let receiver: HttpReceiver | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
  await receiver?.close();
  receiver = undefined;
});

async function scrape(d: TestDaemon): Promise<string> {
  const response = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of one exact series (name and labels as rendered), or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Scrapes until `series` has `value` (deliveries run in the background), then returns that scrape. */
async function scrapeUntil(d: TestDaemon, series: string, value: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await scrape(d);
    if (sample(text, series) === value || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('/metrics (Prometheus text format)', () => {
  it('counts events by source, kind and outcome, and never labels with what a stranger sent', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    const body = envelope('incident.created', { severity: 'critical' });
    await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    await postWebhook(daemon.url, envelope('brand.new.kind', {}), { secret: SOURCE_SECRET });
    await postWebhook(daemon.url, body, { secret: 'wrong-secret-0123456789abcdef' });
    await postWebhook(daemon.url, body, { source: 'attacker-chosen-name', secret: SOURCE_SECRET });

    const text = await scrape(daemon);
    const line = (series: string) => text.split('\n').find((l) => l.startsWith(`${series} `));
    expect(
      line('switchyard_events_received_total{source="monitor",kind="incident.created",outcome="accepted"}'),
    ).toMatch(/ 1$/);
    expect(
      line('switchyard_events_received_total{source="monitor",kind="incident.created",outcome="duplicate"}'),
    ).toMatch(/ 1$/);
    expect(line('switchyard_events_received_total{source="monitor",kind="other",outcome="accepted"}')).toMatch(/ 1$/);
    expect(line('switchyard_events_received_total{source="monitor",kind="",outcome="invalid_signature"}')).toMatch(
      / 1$/,
    );
    expect(line('switchyard_events_received_total{source="(unknown)",kind="",outcome="unknown_source"}')).toMatch(
      / 1$/,
    );
    expect(text).not.toContain('attacker-chosen-name');
    expect(text).not.toContain('brand.new.kind');
    expect(text).toMatch(/^switchyard_journal_commit_seconds_count 3$/m);
    expect(text).toMatch(/^switchyard_rules_info\{version="[0-9a-f]{12}"\} 1$/m);
    expect(text).toMatch(/^switchyard_rules_last_reload_ok 1$/m);
    // Every target points at a closed port: each delivery is retried, so all three stay pending, none dead.
    expect(sample(text, 'switchyard_deliveries{target="soc-slack",state="pending"}')).toBe(1);
    expect(sample(text, 'switchyard_deliveries{target="oncall-mail",state="pending"}')).toBe(1);
    expect(sample(text, 'switchyard_deliveries{target="tickets",state="pending"}')).toBe(1);
    expect(text).not.toMatch(/^switchyard_deliveries\{[^}]*state="(dead|delivered)"\}/m);
    expect(text).toMatch(/^switchyard_target_circuit_state\{target="tickets",state="closed"\} 1$/m);
    expect(text).toContain('# TYPE switchyard_delivery_attempt_duration_seconds histogram');
    expect(text).toContain('switchyard_process_resident_memory_bytes');
  });

  it('reports attempt durations, exact pending and dead counts, and an open circuit, per target', async () => {
    receiver = await startHttpReceiver();
    // tickets answers 200. pager's port is closed: its first failure dead-letters the delivery (one attempt
    // allowed) and opens its circuit for an hour, so the next delivery waits, pending, without an attempt.
    const rules = `targets:
  tickets: { type: http, url: "${receiver.url}/hook" }
  pager:
    type: http
    url: "http://127.0.0.1:9/page"
    retry: { max_attempts: 1 }
    circuit_breaker: { failures: 1, cooldown: 1h }
routes:
  - { name: all, to: [tickets, pager] }
fallback: []
`;
    daemon = await startTestDaemon(tempDir(), { rules, env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    const post = (n: number) => postWebhook(daemon!.url, envelope('agent.offline', { n }), { secret: SOURCE_SECRET });

    expect((await post(1)).status).toBe(200);
    await scrapeUntil(daemon, 'switchyard_delivery_attempts_total{target="pager",outcome="dead"}', 1);
    expect((await post(2)).status).toBe(200);
    await scrapeUntil(daemon, 'switchyard_delivery_attempts_total{target="tickets",outcome="delivered"}', 2);
    // The attempt is counted when it ends, its record committed just after (later still through the journal
    // thread): the journal's counts follow.
    const text = await scrapeUntil(daemon, 'switchyard_deliveries{target="tickets",state="delivered"}', 2);

    expect(receiver.requests).toHaveLength(2);
    expect(sample(text, 'switchyard_delivery_attempt_duration_seconds_count{target="tickets"}')).toBe(2);
    expect(sample(text, 'switchyard_delivery_attempt_duration_seconds_count{target="pager"}')).toBe(1);
    expect(sample(text, 'switchyard_delivery_attempt_duration_seconds_bucket{le="+Inf",target="tickets"}')).toBe(2);
    expect(sample(text, 'switchyard_delivery_attempt_duration_seconds_sum{target="tickets"}')).toBeGreaterThan(0);

    expect(sample(text, 'switchyard_deliveries{target="tickets",state="delivered"}')).toBe(2);
    expect(sample(text, 'switchyard_deliveries{target="tickets",state="pending"}')).toBeUndefined();
    expect(sample(text, 'switchyard_deliveries{target="tickets",state="dead"}')).toBeUndefined();
    expect(sample(text, 'switchyard_deliveries{target="pager",state="dead"}')).toBe(1);
    expect(sample(text, 'switchyard_deliveries{target="pager",state="pending"}')).toBe(1);
    expect(sample(text, 'switchyard_deliveries{target="pager",state="delivered"}')).toBeUndefined();

    expect(sample(text, 'switchyard_target_circuit_state{target="pager",state="open"}')).toBe(1);
    expect(sample(text, 'switchyard_target_circuit_state{target="pager",state="closed"}')).toBe(0);
    expect(sample(text, 'switchyard_target_circuit_state{target="pager",state="half-open"}')).toBe(0);
    expect(sample(text, 'switchyard_target_circuit_state{target="tickets",state="closed"}')).toBe(1);
    expect(sample(text, 'switchyard_target_circuit_state{target="tickets",state="open"}')).toBe(0);
  });

  it('shows a failed reload in metrics and in /readyz, which stays ready (the previous rules serve)', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    writeFileSync(daemon.rulesPath, TEST_RULES.replace('fallback: [tickets]', 'fallback: [nowhere]'));
    expect(daemon.running.reloadRules()).toBe(false);
    const text = await scrape(daemon);
    expect(text).toMatch(/^switchyard_rules_last_reload_ok 0$/m);
    // Once by the call above; the file watcher may notice the change and fail it again (see `trigger` below).
    expect(text).toMatch(/^switchyard_rules_reloads_total\{result="failure"\} [12]$/m);

    const response = await fetch(`${daemon.url}/readyz`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ready',
      ready: true,
      checks: {
        listening: { ok: true },
        journal: { ok: true },
        ingest: { ok: true },
        rules: {
          ok: false,
          error: 'the last reload failed; the previous rules stay in force',
          last_reload: {
            ok: false,
            at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            // The file watcher may notice the change and fail the same reload again before the scrape.
            trigger: expect.stringMatching(/^(signal|watch)$/),
            error: expect.stringContaining('nowhere'),
          },
        },
      },
    });
  });

  it('tells an anonymous /readyz caller which check failed, but no error text and no path', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    writeFileSync(daemon.rulesPath, TEST_RULES.replace('fallback: [tickets]', 'fallback: [nowhere]'));
    expect(daemon.running.reloadRules()).toBe(false);
    const detailed = await (
      await fetch(`${daemon.url}/readyz`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    expect(detailed).toContain(daemon.dir);
    expect(detailed).toContain('nowhere');

    const response = await fetch(`${daemon.url}/readyz`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      status: 'ready',
      ready: true,
      checks: { listening: { ok: true }, journal: { ok: true }, ingest: { ok: true }, rules: { ok: false } },
    });
    expect(text).not.toContain(daemon.dir);
    expect(text).not.toContain('nowhere');
    expect(text).not.toContain('reload');

    // A wrong credential is refused as on /metrics, never answered with the details.
    const wrong = await fetch(`${daemon.url}/readyz`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('nowhere');
  });
});

describe('/healthz and /readyz', () => {
  it('reports not ready, with the reason, while the journal cannot take writes, and ready again by itself', async () => {
    daemon = await startTestDaemon(tempDir(), { busyTimeout: '100ms' });
    expect(await (await fetch(`${daemon.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);

    // Another process holds the write lock: the commit fails (503) and readiness says why.
    const other = new Database(daemon.dbPath);
    other.exec('BEGIN IMMEDIATE');
    const event = (n: number) => envelope('agent.offline', { hostname: `db-${n}` });
    expect((await postWebhook(daemon.url, event(1), { secret: SOURCE_SECRET })).status).toBe(503);
    const response = await fetch(`${daemon.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'not_ready',
      checks: { journal: { ok: true }, ingest: { ok: false } },
    });

    other.exec('ROLLBACK');
    other.close();
    // Ready again without any webhook (a load balancer sends none to an unready instance).
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
    expect((await postWebhook(daemon.url, event(2), { secret: SOURCE_SECRET })).status).toBe(200);
  });

  it('moves /healthz, /readyz and /metrics to the admin listener when configured so', async () => {
    daemon = await startTestDaemon(tempDir(), {
      config: 'admin: { listen: { host: 127.0.0.1, port: 0 }, health_and_metrics: admin }',
      env: { SWITCHYARD_ADMIN_TOKEN: TOKEN },
    });
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(404);
    expect((await fetch(`${daemon.url}/metrics`)).status).toBe(404);
    const admin = `http://127.0.0.1:${daemon.running.adminPort}`;
    expect(await (await fetch(`${admin}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${admin}/readyz`)).status).toBe(200);
    expect((await fetch(`${admin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});

// promtool is Prometheus' own linter (Debian package `prometheus`); where it is missing, the test says so in
// its name instead of passing silently, and the suffix test below still runs.
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const hasPromtool = promtool.error === undefined && promtool.status === 0;

describe('/metrics lints clean', () => {
  async function busyScrape(): Promise<string> {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    const body = envelope('incident.created', { severity: 'critical' });
    expect((await postWebhook(daemon.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
    return scrapeUntil(
      daemon,
      'switchyard_events_received_total{source="monitor",kind="incident.created",outcome="accepted"}',
      1,
    );
  }

  it('names no gauge *_total and every counter *_total (Prometheus naming)', async () => {
    const types = [...(await busyScrape()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({
      name,
      type,
    }));
    expect(types.length).toBeGreaterThan(20);
    expect(types.filter((t) => t.type !== 'counter' && t.name?.endsWith('_total'))).toEqual([]);
    expect(types.filter((t) => t.type === 'counter' && !t.name?.endsWith('_total'))).toEqual([]);
  });

  const promtoolTest = hasPromtool
    ? 'passes `promtool check metrics`'
    : 'passes `promtool check metrics`: SKIPPED, promtool is not installed (apt-get install prometheus)';
  it.skipIf(!hasPromtool)(promtoolTest, async () => {
    const text = await busyScrape();
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: checked.status, out: checked.stdout, err: checked.stderr }).toEqual({
      status: 0,
      out: '',
      err: '',
    });
  });
});
