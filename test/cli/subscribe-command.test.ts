import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSubscribe } from '../../src/cli/subscribe-command.js';
import { MONITORING, startMonitoringApi, type MonitoringApi } from '../helpers/start-monitoring-api.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const tempDir = useTempDirs();
const PUBLIC_URL = 'https://switchyard.example.com/webhooks/monitor';
const CONFIG = `sources:\n  monitor:\n    secrets: ['\${MONITOR_WEBHOOK_SECRET}']\n  infra:\n    secrets: ['literal-secret-in-the-file-0123']\n`;
const API_ENV = { SWITCHYARD_UPSTREAM_API_KEY: MONITORING.apiKey };
const OAUTH_ENV = {
  SWITCHYARD_OAUTH_CLIENT_ID: MONITORING.clientId,
  SWITCHYARD_OAUTH_CLIENT_SECRET: MONITORING.clientSecret,
};

let api: MonitoringApi;
let dir: string;
beforeEach(async () => {
  api = await startMonitoringApi();
  dir = tempDir();
  writeFileSync(path.join(dir, 'switchyard.yaml'), CONFIG);
});
afterEach(() => api.close());

function args(...extra: string[]): string[] {
  return [
    '--base-url',
    api.url,
    '--url',
    PUBLIC_URL,
    '--events',
    'incident.created,agent.offline',
    '--config',
    'switchyard.yaml',
    ...extra,
  ];
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('switchyard subscribe', () => {
  it('creates the subscription with the API key as bearer and prints a generated secret once, as VAR=secret', async () => {
    const io = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args(), io)).toBe(0);
    expect(api.requests).toHaveLength(1);
    const [request] = api.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/webhooks');
    expect(request?.headers.authorization).toBe(`Bearer ${MONITORING.apiKey}`);
    expect(request?.headers['content-type']).toBe('application/json');
    const body = request?.json as { url: string; events: string[]; secret: string };
    expect(Object.keys(body).sort()).toEqual(['events', 'secret', 'url']);
    expect(body.url).toBe(PUBLIC_URL);
    expect(body.events).toEqual(['incident.created', 'agent.offline']);
    expect(body.secret).toMatch(/^[0-9a-f]{64}$/);

    expect(io.out()).toContain(
      `subscribed (wh_1): ${api.url} sends incident.created, agent.offline to ${PUBLIC_URL}\n`,
    );
    expect(io.out()).toContain(`\nMONITOR_WEBHOOK_SECRET=${body.secret}\n`);
    expect(io.out()).toContain('${MONITOR_WEBHOOK_SECRET}');
    expect(occurrences(io.out() + io.err(), body.secret)).toBe(1);
    expect(io.out() + io.err()).not.toContain(MONITORING.apiKey);
  });

  it('makes a new secret each time', async () => {
    await runSubscribe(args(), fakeCliIo(dir, API_ENV));
    await runSubscribe(args(), fakeCliIo(dir, API_ENV));
    const secrets = api.requests.map((r) => (r.json as { secret: string }).secret);
    expect(secrets[0]).not.toBe(secrets[1]);
  });

  it('rejects an unknown event kind before any request (exit 2)', async () => {
    const io = fakeCliIo(dir, API_ENV);
    const code = await runSubscribe(
      [
        '--base-url',
        api.url,
        '--url',
        PUBLIC_URL,
        '--events',
        'incident.created,incident.deleted',
        '--config',
        'switchyard.yaml',
      ],
      io,
    );
    expect(code).toBe(2);
    expect(api.requests).toHaveLength(0);
    expect(io.err()).toContain('unknown event kind "incident.deleted"');
    expect(io.err()).toContain('known: incident.created, incident.updated');
    expect(io.out()).toBe('');
  });

  it('refuses without an API key in the environment (exit 2), and takes none from a flag', async () => {
    const io = fakeCliIo(dir, {});
    expect(await runSubscribe(args(), io)).toBe(2);
    expect(io.err()).toContain('SWITCHYARD_UPSTREAM_API_KEY is not set');
    const flagged = fakeCliIo(dir, {});
    expect(await runSubscribe(args('--api-key', MONITORING.apiKey), flagged)).toBe(2);
    expect(flagged.err()).toContain("Unknown option '--api-key'");
    expect(api.requests).toHaveLength(0);
  });

  it('reports a refused API key (401) with the service message and a hint, never the key, writing nothing', async () => {
    const envFile = path.join(dir, 'switchyard.env');
    const io = fakeCliIo(dir, { SWITCHYARD_UPSTREAM_API_KEY: 'wrong-key-0123456789' });
    expect(await runSubscribe(args('--write-env-file', envFile), io)).toBe(1);
    expect(io.err()).toContain('creating the webhook subscription failed: 401 (the credentials were refused)');
    expect(io.err()).toContain('the service says: unauthorized: invalid API key');
    expect(io.err()).toContain('check SWITCHYARD_UPSTREAM_API_KEY');
    expect(io.err()).toContain('no secret was written');
    expect(io.out() + io.err()).not.toContain('wrong-key-0123456789');
    expect(io.out()).toBe('');
    expect(() => lstatSync(envFile)).toThrow(/ENOENT/);
  });

  it('masks the API key and the secret even where the service echoes them', async () => {
    api.script('POST /v1/webhooks', {
      status: 403,
      body: {
        error: {
          message: `key ${MONITORING.apiKey} may not subscribe https://switchyard.example.com/webhooks/monitor?x=1`,
        },
      },
    });
    const io = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args(), io)).toBe(1);
    expect(io.err()).toContain('403 (the credentials are not allowed to do this)');
    expect(io.err()).toContain('key [redacted] may not subscribe https://switchyard.example.com/…');
    expect(io.err()).toContain('SWITCHYARD_UPSTREAM_API_KEY may not create webhook subscriptions');
    expect(io.err()).not.toContain(MONITORING.apiKey);
  });

  it('reports 5xx, 409 and 422 answers with their message (exit 1)', async () => {
    api.script(
      'POST /v1/webhooks',
      { status: 503, body: { error: { message: 'maintenance until 03:00' } } },
      { status: 409, body: { message: 'a webhook for this URL exists' } },
      { status: 422, body: { detail: 'url must be publicly reachable' } },
    );
    const failed = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args(), failed)).toBe(1);
    expect(failed.err()).toContain(
      'switchyard subscribe: upstream_failed: creating the webhook subscription failed: 503',
    );
    expect(failed.err()).toContain(
      '(the service failed: nothing was changed here; try again later); the service says: maintenance until 03:00',
    );
    const conflict = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args(), conflict)).toBe(1);
    expect(conflict.err()).toContain('409 (it conflicts with what the service already has)');
    expect(conflict.err()).toContain(
      'a webhook for this URL exists; a subscription for this URL probably exists already',
    );
    const refused = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args(), refused)).toBe(1);
    expect(refused.err()).toContain(
      '422 (the service refused the values sent); the service says: url must be publicly reachable',
    );
    for (const io of [failed, conflict, refused]) expect(io.out()).toBe('');
  });

  it('says so when the service cannot be reached (exit 1)', async () => {
    await api.close();
    const io = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args(), io)).toBe(1);
    expect(io.err()).toMatch(
      /upstream_unreachable: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/,
    );
    api = await startMonitoringApi(); // for afterEach
  });

  it('writes the secret into a new env file with mode 0600 and does not print it', async () => {
    const envFile = path.join(dir, 'switchyard.env');
    const io = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args('--write-env-file', 'switchyard.env'), io)).toBe(0);
    const secret = (api.requests[0]?.json as { secret: string }).secret;
    expect(readFileSync(envFile, 'utf8')).toBe(`MONITOR_WEBHOOK_SECRET=${secret}\n`);
    expect(lstatSync(envFile).mode & 0o777).toBe(0o600);
    expect(io.out()).toContain(`wrote MONITOR_WEBHOOK_SECRET to ${envFile} (mode 0600)`);
    expect(io.out() + io.err()).not.toContain(secret);
  });

  it('replaces the variable in an existing env file, keeps the other lines, and tightens its mode', async () => {
    const envFile = path.join(dir, 'daemon.env');
    writeFileSync(
      envFile,
      '# daemon\nSLACK_URL=https://hooks.example/x\nexport MONITOR_WEBHOOK_SECRET=old-old-old-old-old\nLOG=1\n',
      {
        mode: 0o644,
      },
    );
    expect(await runSubscribe(args('--write-env-file', envFile), fakeCliIo(dir, API_ENV))).toBe(0);
    const secret = (api.requests[0]?.json as { secret: string }).secret;
    expect(readFileSync(envFile, 'utf8')).toBe(
      `# daemon\nSLACK_URL=https://hooks.example/x\nMONITOR_WEBHOOK_SECRET=${secret}\nLOG=1\n`,
    );
    expect(lstatSync(envFile).mode & 0o777).toBe(0o600);
  });

  it('refuses an env file that is a symbolic link, before any request', async () => {
    writeFileSync(path.join(dir, 'real.env'), 'A=1\n');
    symlinkSync(path.join(dir, 'real.env'), path.join(dir, 'link.env'));
    const io = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe(args('--write-env-file', 'link.env'), io)).toBe(2);
    expect(io.err()).toContain('is a symbolic link');
    expect(api.requests).toHaveLength(0);
  });

  it('refuses --write-env-file when the source secret is written in the config, and prints such a secret with directions', async () => {
    const infra = [
      '--base-url',
      api.url,
      '--url',
      'https://sy.example.com/webhooks/infra',
      '--events',
      'agent.offline',
    ];
    const refused = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe([...infra, '--config', 'switchyard.yaml', '--write-env-file', 'x.env'], refused)).toBe(2);
    expect(refused.err()).toContain('sources.infra.secrets[0] in switchyard.yaml is not a ${VAR} reference');
    expect(api.requests).toHaveLength(0);

    const printed = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe([...infra, '--config', 'switchyard.yaml'], printed)).toBe(0);
    const secret = (api.requests[0]?.json as { secret: string }).secret;
    expect(printed.out()).toContain(`\n${secret}\n`);
    expect(printed.out()).toContain("secrets: ['${INFRA_WEBHOOK_SECRET}']");
  });

  it('finds the source from --source, the URL, or the only one, and refuses a mismatch or an unknown source', async () => {
    const base = ['--base-url', api.url, '--events', 'agent.offline', '--config', 'switchyard.yaml'];
    const mismatch = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe([...base, '--url', PUBLIC_URL, '--source', 'infra'], mismatch)).toBe(2);
    expect(mismatch.err()).toContain('--url ends in /webhooks/monitor, but --source is "infra"');
    const unknown = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe([...base, '--url', 'https://sy.example.com/webhooks/edr'], unknown)).toBe(2);
    expect(unknown.err()).toContain('has no source "edr" (it has: monitor, infra)');
    const ambiguous = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe([...base, '--url', 'https://sy.example.com/in'], ambiguous)).toBe(2);
    expect(ambiguous.err()).toContain('has sources monitor, infra: name one with --source');
    const named = fakeCliIo(dir, API_ENV);
    expect(await runSubscribe([...base, '--url', 'https://sy.example.com/in', '--source', 'monitor'], named)).toBe(0);
    expect(named.out()).toContain('MONITOR_WEBHOOK_SECRET=');
    expect(api.requests).toHaveLength(1);
  });

  it('uses the secret from --secret-env without printing it', async () => {
    const given = 'given-secret-0123456789abcdef';
    const io = fakeCliIo(dir, { ...API_ENV, NEW_SECRET: given });
    expect(await runSubscribe(args('--secret-env', 'NEW_SECRET'), io)).toBe(0);
    expect((api.requests[0]?.json as { secret: string }).secret).toBe(given);
    expect(io.out()).toContain('Set MONITOR_WEBHOOK_SECRET in the daemon');
    expect(io.out() + io.err()).not.toContain(given);
    const short = fakeCliIo(dir, { ...API_ENV, NEW_SECRET: 'short' });
    expect(await runSubscribe(args('--secret-env', 'NEW_SECRET'), short)).toBe(2);
    expect(short.err()).toContain('shorter than 16 characters');
  });

  it('refuses a plain-http base URL that is not loopback, since the key would travel unencrypted', async () => {
    const io = fakeCliIo(dir, API_ENV);
    const code = await runSubscribe(
      [
        '--base-url',
        'http://monitor.example.com',
        '--url',
        PUBLIC_URL,
        '--events',
        'agent.offline',
        '--config',
        'switchyard.yaml',
      ],
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toContain('--base-url: must be https://');
  });
});

describe('switchyard subscribe --oauth-code', () => {
  it('exchanges the code, then subscribes with the access token', async () => {
    const io = fakeCliIo(dir, OAUTH_ENV);
    expect(await runSubscribe(args('--oauth-code', MONITORING.code), io)).toBe(0);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /oauth/token', 'POST /v1/webhooks']);
    expect(api.requests[0]?.json).toEqual({
      grant_type: 'authorization_code',
      code: MONITORING.code,
      client_id: MONITORING.clientId,
      client_secret: MONITORING.clientSecret,
    });
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
    expect(api.requests[1]?.headers.authorization).toBe(`Bearer ${MONITORING.accessToken}`);
    const output = io.out() + io.err();
    for (const secret of [MONITORING.accessToken, MONITORING.clientSecret, MONITORING.code]) {
      expect(output).not.toContain(secret);
    }
  });

  it('stops at a refused code (400 invalid_grant), before any subscription', async () => {
    const io = fakeCliIo(dir, OAUTH_ENV);
    expect(await runSubscribe(args('--oauth-code', 'used-code-0123456789'), io)).toBe(1);
    expect(io.err()).toContain('exchanging the authorization code failed: 400');
    expect(io.err()).toContain('invalid_grant: code expired or already used');
    expect(io.err()).toContain('get a new one');
    expect(io.err()).not.toContain('used-code-0123456789');
    expect(api.requests.map((r) => r.path)).toEqual(['/oauth/token']);
  });

  it('needs the client credentials in the environment (exit 2)', async () => {
    const io = fakeCliIo(dir, { SWITCHYARD_OAUTH_CLIENT_ID: MONITORING.clientId });
    expect(await runSubscribe(args('--oauth-code', MONITORING.code), io)).toBe(2);
    expect(io.err()).toContain('SWITCHYARD_OAUTH_CLIENT_SECRET is not set (needed with --oauth-code)');
    expect(api.requests).toHaveLength(0);
  });

  it('refuses a token answer without an access token', async () => {
    api.script('POST /oauth/token', { status: 200, body: { token_type: 'Bearer' } });
    const io = fakeCliIo(dir, OAUTH_ENV);
    expect(await runSubscribe(args('--oauth-code', MONITORING.code), io)).toBe(1);
    expect(io.err()).toContain('the token answer holds no usable access_token');
    expect(api.requests).toHaveLength(1);
  });
});

describe('switchyard subscribe (a real process)', () => {
  it('subscribes and writes the env file', async () => {
    // From the checkout (tsx resolves there), with absolute paths into the temp folder.
    const envFile = path.join(dir, 'switchyard.env');
    const absolute = args('--write-env-file', envFile).map((arg) =>
      arg === 'switchyard.yaml' ? path.join(dir, arg) : arg,
    );
    const real = spawnCli(['subscribe', ...absolute], API_ENV);
    expect(await real.exited, real.stderr()).toBe(0);
    const secret = (api.requests[0]?.json as { secret: string }).secret;
    expect(readFileSync(path.join(dir, 'switchyard.env'), 'utf8')).toBe(`MONITOR_WEBHOOK_SECRET=${secret}\n`);
    expect(lstatSync(path.join(dir, 'switchyard.env')).mode & 0o777).toBe(0o600);
    expect(real.stdout()).toContain('subscribed (wh_1)');
    expect(real.stdout() + real.stderr()).not.toContain(secret);
  });
});
