import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, TEST_RULES, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const TOKEN = 'metrics-token-0123456789abcdef';
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

async function scrape(d: TestDaemon): Promise<string> {
  const response = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
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
    expect(text).toMatch(/^switchyard_deliveries\{target="soc-slack",state="(pending|dead)"\} \d+$/m);
    expect(text).toMatch(/^switchyard_target_circuit_state\{target="tickets",state="closed"\} 1$/m);
    expect(text).toContain('# TYPE switchyard_delivery_attempt_duration_seconds histogram');
    expect(text).toContain('switchyard_process_resident_memory_bytes');
  });

  it('shows a failed reload in metrics and in /readyz, which stays ready (the previous rules serve)', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    writeFileSync(daemon.rulesPath, TEST_RULES.replace('fallback: [tickets]', 'fallback: [nowhere]'));
    expect(daemon.running.reloadRules()).toBe(false);
    const text = await scrape(daemon);
    expect(text).toMatch(/^switchyard_rules_last_reload_ok 0$/m);
    expect(text).toMatch(/^switchyard_rules_reloads_total\{result="failure"\} 1$/m);

    const response = await fetch(`${daemon.url}/readyz`);
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
          last_reload: { ok: false, trigger: 'signal', error: expect.stringContaining('nowhere') },
        },
      },
    });
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
      checks: { journal: { ok: true }, ingest: { ok: false, error: expect.stringContaining('journal') } },
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
