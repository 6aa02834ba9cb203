import { writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { makeSelfSignedCert } from '../delivery/targets/make-self-signed-cert.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { MONITORING, startMonitoringApi, type MonitoringApi } from '../helpers/start-monitoring-api.js';
import { PRIVATE_CA } from '../helpers/private-ca.js';
import { startSmtpServer, type RunningSmtpServer } from '../helpers/start-smtp-server.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const tempDir = useTempDirs();
const SOURCE_SECRET = 'test-secret-0123456789abcdef';
const SLACK_PATH = '/services/T000/B000/slack-path-secret-0123';
const SMTP_PASS = 'smtp-pass-secret-0123456789';
const CONFIG = `listen: { host: 127.0.0.1, port: 0 }
rules: ./rules.yaml
store: { sqlite: { path: ./journal.db } }
sources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }
`;

let slack: HttpReceiver;
let tickets: HttpReceiver;
let smtp: RunningSmtpServer;
let api: MonitoringApi;
let dir: string;

beforeEach(async () => {
  [slack, tickets, smtp, api] = await Promise.all([
    startHttpReceiver(),
    startHttpReceiver(),
    startSmtpServer({ auth: { user: 'switchyard', pass: SMTP_PASS }, tls: PRIVATE_CA.server }),
    startMonitoringApi(),
  ]);
  dir = tempDir();
  writeFileSync(path.join(dir, 'switchyard.yaml'), CONFIG);
});
afterEach(() => Promise.all([slack.close(), tickets.close(), smtp.close(), api.close()]));

function rules(targets: string): void {
  const names = [...targets.matchAll(/^ {2}([\w-]+):/gm)].map((match) => match[1]);
  writeFileSync(path.join(dir, 'rules.yaml'), `targets:\n${targets}\nroutes: []\nfallback: [${names.join(', ')}]\n`);
}

function standInTargets(): string {
  return `  soc-slack: { type: slack, webhook_url: "\${SLACK_URL}" }
  tickets: { type: http, url: "${tickets.url}/api/issues?token=\${TICKETS_TOKEN}" }
  oncall-mail:
    type: email
    smtp:
      host: 127.0.0.1
      port: ${smtp.port}
      auth: { user: switchyard, pass: "\${SMTP_PASS}" }
      ca: ${PRIVATE_CA.caFile}
      name: switchyard.example.com
    from: switchyard@example.com
    to: [oncall@example.com]`;
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    MONITOR_SECRET: SOURCE_SECRET,
    SLACK_URL: `${slack.url}${SLACK_PATH}`,
    TICKETS_TOKEN: 'tickets-token-secret-0123',
    SMTP_PASS,
    SWITCHYARD_UPSTREAM_API_KEY: MONITORING.apiKey,
    ...extra,
  };
}

async function migrateJournal(): Promise<void> {
  const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
  await store.migrate();
  await store.close();
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function line(output: string, item: string): string {
  const found = output.split('\n').find((l) => l.split(/\s{2,}/)[1] === item) ?? `(no line for ${item})`;
  // Columns are padded to the longest item; two spaces stand for any padding here.
  return found.replace(/ {2,}/g, '  ');
}

function expectNoSecrets(output: string): void {
  for (const secret of [SOURCE_SECRET, SLACK_PATH, SMTP_PASS, 'tickets-token-secret-0123', MONITORING.apiKey]) {
    expect(output).not.toContain(secret);
  }
}

describe('switchyard doctor', () => {
  it('says OK for everything reachable, without sending a request, a mail or an event', async () => {
    rules(standInTargets());
    await migrateJournal();
    const io = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml', '--base-url', api.url], io)).toBe(0);
    const out = io.out();
    expect(line(out, 'config')).toMatch(
      /^OK\s+config\s+.*switchyard\.yaml: 1 source \(monitor\), listening on 127\.0\.0\.1:0$/,
    );
    expect(line(out, 'rules')).toMatch(/^OK\s+rules\s+.*rules\.yaml: 0 routes, 3 targets, version [0-9a-f]{12}$/);
    expect(line(out, 'journal')).toMatch(/^OK\s+journal\s+.*journal\.db: writable, schema version \d+ \(current\)$/);
    expect(line(out, 'target soc-slack')).toBe(
      `OK  target soc-slack  slack ${slack.url}: TCP connection to 127.0.0.1:${slack.port}; no request sent`,
    );
    expect(line(out, 'target tickets')).toContain(`OK  target tickets  http ${tickets.url}: TCP connection`);
    expect(line(out, 'target oncall-mail')).toContain(
      `OK  target oncall-mail  email smtp://127.0.0.1:${smtp.port}: SMTP server verified`,
    );
    expect(line(out, 'upstream')).toBe(
      `OK  upstream  ${api.url}: GET /v1/agents answered 200: SWITCHYARD_UPSTREAM_API_KEY accepted`,
    );
    expect(out).toMatch(/doctor: 7 OK, 0 WARN, 0 FAIL\n$/);
    expect(slack.requests).toHaveLength(0);
    expect(tickets.requests).toHaveLength(0);
    expect(smtp.connections()).toBe(1);
    expect(smtp.messages).toHaveLength(0);
    expect(api.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
      `GET /v1/agents Bearer ${MONITORING.apiKey}`,
    ]);
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    await store.close();
    expectNoSecrets(out + io.err());
  });

  it('probes a Teams workflow webhook by its origin only, never showing or sending its sig', async () => {
    const sig = 'teams-doctor-sig-secret-0123';
    rules(`  soc-teams: { type: teams, webhook_url: "\${TEAMS_URL}" }`);
    await migrateJournal();
    const url = `${slack.url}/workflows/0a1b2c3d4e5f60718293a4b5c6d7e8f9/triggers/manual/paths/invoke?sv=1.0&sig=${sig}`;
    const io = fakeCliIo(dir, env({ TEAMS_URL: url }));
    expect(await runDoctor(['--config', 'switchyard.yaml', '--base-url', api.url], io)).toBe(0);
    expect(line(io.out(), 'target soc-teams')).toBe(
      `OK  target soc-teams  teams ${slack.url}: TCP connection to 127.0.0.1:${slack.port}; no request sent`,
    );
    expect(slack.requests).toHaveLength(0);
    expect(io.out() + io.err()).not.toContain(sig);
  });

  it('says FAIL for unreachable targets and a refused SMTP login, with the reason, and exits 1', async () => {
    rules(standInTargets());
    await migrateJournal();
    await Promise.all([slack.close(), tickets.close()]);
    const io = fakeCliIo(dir, env({ SMTP_PASS: 'wrong-smtp-pass-0123' }));
    expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(1);
    const out = io.out();
    expect(line(out, 'target soc-slack')).toMatch(
      /^FAIL\s+target soc-slack\s+slack http:\/\/127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)$/,
    );
    expect(line(out, 'target tickets')).toContain('FAIL  target tickets  http http://127.0.0.1:');
    expect(line(out, 'target oncall-mail')).toMatch(
      /^FAIL\s+target oncall-mail\s+email smtp:\/\/127\.0\.0\.1:\d+: .*535/,
    );
    expect(smtp.failedLogins).toEqual(['switchyard']);
    expect(smtp.messages).toHaveLength(0);
    expect(line(out, 'upstream')).toBe(
      'WARN  upstream  not checked: give --base-url to check SWITCHYARD_UPSTREAM_API_KEY',
    );
    expect(out).toMatch(/doctor: 3 OK, 1 WARN, 3 FAIL\n$/);
    expectNoSecrets(out);
    expect(out).not.toContain('wrong-smtp-pass-0123');
  });

  it('refuses link-local and metadata addresses as the targets do, without connecting', async () => {
    rules(`  metadata: { type: http, url: "http://169.254.169.254/latest/meta-data/" }`);
    const io = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(1);
    expect(line(io.out(), 'target metadata')).toContain(
      'FAIL  target metadata  http http://169.254.169.254: refused to connect to 169.254.169.254',
    );
  });

  it('checks an HTTP target with requests: at its create request, its templated URLs not rendered', async () => {
    rules(`  jira:
    type: http
    requests:
      create: { url: "${tickets.url}/rest/api/2/issue", capture: { ticket: body.key } }
      update: { url: "${tickets.url}/rest/api/2/issue/{{ ref.ticket }}/comment" }`);
    const io = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(0);
    expect(line(io.out(), 'target jira')).toBe(
      `OK  target jira  http ${tickets.url}: TCP connection to 127.0.0.1:${tickets.port}; no request sent`,
    );
    expect(tickets.requests).toHaveLength(0);
  });

  it('checks a PagerDuty target at its base_url, without sending an event or showing the routing key', async () => {
    const routingKey = 'pagerduty0routing0key0secret0123';
    rules(`  pager: { type: pagerduty, routing_key: "\${PD_ROUTING_KEY}", base_url: "${tickets.url}" }`);
    const io = fakeCliIo(dir, env({ PD_ROUTING_KEY: routingKey }));
    expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(0);
    expect(line(io.out(), 'target pager')).toBe(
      `OK  target pager  pagerduty ${tickets.url}: TCP connection to 127.0.0.1:${tickets.port}; no request sent`,
    );
    expect(tickets.requests).toHaveLength(0);
    expect(io.out() + io.err()).not.toContain(routingKey);
  });

  it('checks the TLS certificate of an https target', async () => {
    const server = createHttpsServer(makeSelfSignedCert(dir), (_request, response) => response.end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let requests = 0;
    server.on('request', () => (requests += 1));
    try {
      rules(`  tickets: { type: http, url: "https://127.0.0.1:${port}/api" }`);
      const io = fakeCliIo(dir, env());
      expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(1);
      expect(line(io.out(), 'target tickets')).toMatch(
        /^FAIL\s+target tickets\s+http https:\/\/127\.0\.0\.1:\d+: .*self-signed certificate/,
      );
      expect(requests).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reports the API key: 401 FAIL, 403 WARN, unreachable FAIL, missing FAIL', async () => {
    rules(`  tickets: { type: http, url: "${tickets.url}" }`);
    await migrateJournal();
    const refused = fakeCliIo(dir, env({ SWITCHYARD_UPSTREAM_API_KEY: 'wrong-api-key-0123456789' }));
    expect(await runDoctor(['--config', 'switchyard.yaml', '--base-url', api.url], refused)).toBe(1);
    expect(line(refused.out(), 'upstream')).toBe(
      `FAIL  upstream  ${api.url}: GET /v1/agents answered 401: SWITCHYARD_UPSTREAM_API_KEY refused: unauthorized: invalid API key`,
    );
    expect(refused.out()).not.toContain('wrong-api-key-0123456789');

    api.script('GET /v1/agents', { status: 403, body: { error: { message: 'scope agents:read required' } } });
    const forbidden = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml', '--base-url', api.url], forbidden)).toBe(0);
    expect(line(forbidden.out(), 'upstream')).toContain('WARN  upstream  ');
    expect(line(forbidden.out(), 'upstream')).toContain(
      '403: the key is known but may not list agents: scope agents:read required',
    );

    const missing = fakeCliIo(dir, env({ SWITCHYARD_UPSTREAM_API_KEY: '' }));
    expect(await runDoctor(['--config', 'switchyard.yaml', '--base-url', api.url], missing)).toBe(1);
    expect(line(missing.out(), 'upstream')).toContain('SWITCHYARD_UPSTREAM_API_KEY is not set');

    const down = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml', '--base-url', down], unreachable)).toBe(1);
    expect(line(unreachable.out(), 'upstream')).toContain(`cannot reach ${down}: connection refused (ECONNREFUSED)`);
  });

  it('fails on a config the daemon would refuse, naming the variable, and skips what the config names', async () => {
    rules(`  tickets: { type: http, url: "${tickets.url}" }`);
    const io = fakeCliIo(dir, env({ MONITOR_SECRET: '' }));
    expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(1);
    expect(io.out()).toContain('environment variable MONITOR_SECRET is not set');
    expect(io.out()).toContain('(rules, journal and targets not checked)');
    expect(io.out()).toMatch(/doctor: 0 OK, 1 WARN, 1 FAIL\n$/);
  });

  it('fails on invalid rules, with the located problems', async () => {
    rules(`  chat: { type: slack, webhook_url: "\${MISSING_SLACK_URL}" }`);
    const io = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml'], io)).toBe(1);
    expect(line(io.out(), 'rules')).toMatch(/^FAIL\s+rules\s+.*rules\.yaml: 1 error$/);
    expect(io.out()).toMatch(/rules\.yaml:2:\d+: error: environment variable MISSING_SLACK_URL is not set/);
  });

  it('warns about a journal not created or not migrated yet, and fails on a file that is not one', async () => {
    rules(`  tickets: { type: http, url: "${tickets.url}" }`);
    const absent = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml'], absent)).toBe(0);
    expect(line(absent.out(), 'journal')).toMatch(
      /^WARN\s+journal\s+.*journal\.db does not exist yet: the daemon creates it at start$/,
    );

    writeFileSync(
      path.join(dir, 'journal.db'),
      'this is not an SQLite file, just text long enough to be read as a header'.repeat(20),
    );
    const broken = fakeCliIo(dir, env());
    expect(await runDoctor(['--config', 'switchyard.yaml'], broken)).toBe(1);
    expect(line(broken.out(), 'journal')).toMatch(/^FAIL\s+journal\s+.*journal\.db: file is not a database$/);
  });

  it('takes no request when the base URL is refused (exit 2)', async () => {
    const io = fakeCliIo(dir, env());
    expect(await runDoctor(['--base-url', 'http://monitor.example.com'], io)).toBe(2);
    expect(io.err()).toContain('--base-url: must be https://');
  });
});
