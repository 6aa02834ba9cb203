import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import { runDeliveries } from '../../src/cli/deliveries-command.js';
import { waitFor } from '../delivery/engine/engine-harness.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { startSmtpServer } from '../helpers/start-smtp-server.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const tempDir = useTempDirs();

const BEARER = 'Qv7bearer-Zk29x8w1m4p0Hs';
const SLACK_PATH = 'T0QWERTY1/B0ASDFGH2/Zx8slacktokenPq4Lm9Ok2W';
const BASIC_USER = 'switchyard';
// A space, a slash, a plus and a quote: each encoding writes it differently.
const BASIC_PASS = 'Pw4 basic/+Yt62"Lq0Xc';
const SMTP_PASS = 'Sm7tp-pass-Rv83Nn1Qa';
const PAIR = `${BASIC_USER}:${BASIC_PASS}`;

/** The forms a hostile receiver echoes the Basic credential in, each of which must be found nowhere. */
const BASIC_FORMS = [
  BASIC_PASS,
  PAIR,
  Buffer.from(PAIR).toString('base64'),
  Buffer.from(PAIR).toString('base64').replace(/=+$/, ''),
  Buffer.from(PAIR).toString('base64url'),
  Buffer.from(BASIC_PASS).toString('base64'),
  encodeURIComponent(BASIC_PASS),
  new URLSearchParams({ p: BASIC_PASS }).toString().slice(2),
  JSON.stringify(BASIC_PASS).slice(1, -1),
];

/**
 * A receiver that answers 500 with `pad` characters, then what it was sent (the request path, which for
 * Slack is the token, and the Authorization header, decoded and re-encoded too), then more words: the
 * secrets land where the excerpt is cut.
 */
async function startEchoReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://x');
      const pad = 'x'.repeat(Number(url.searchParams.get('pad') ?? 0));
      const authorization = request.headers.authorization ?? '';
      const decoded = authorization.startsWith('Basic ')
        ? Buffer.from(authorization.slice(6), 'base64').toString('utf8')
        : '';
      const echoes = decoded === '' ? [url.pathname, authorization] : [authorization, ...BASIC_FORMS.slice(1)];
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`${pad}${echoes.join(' ')}${' and some more words'.repeat(20)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Every piece of `secret` that starts it and is longer than 3 characters. */
function prefixes(secret: string): string[] {
  return Array.from({ length: secret.length - 3 }, (_, index) => secret.slice(0, index + 4));
}

/** Occurrences of `needle` in `haystack` (bytes). */
function count(haystack: Buffer, needle: string): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found++;
  return found;
}

describe('secrets echoed by receivers, across the cut and in their encodings', () => {
  const closers: (() => Promise<unknown>)[] = [];
  let daemon: TestDaemon | undefined;
  afterEach(async () => {
    await daemon?.running.close();
    daemon = undefined;
    for (const close of closers.splice(0)) await close();
  });

  it('are stored, listed, served and logged with no piece longer than 3 characters', async () => {
    const receiver = await startEchoReceiver();
    closers.push(receiver.close);
    // Pads put the secret across the old 200-character cut of the body and across the 300-character cut of
    // the stored detail ("HTTP 500: " and "Slack answered HTTP 500: " come first), at several offsets.
    const pads = [185, 195, 270, 275, 280, 285];
    const once = 'retry: { max_attempts: 1 }';
    const targets = [
      ...pads.map(
        (pad) =>
          `  bearer-${pad}: { type: http, url: "\${ECHO}/t?pad=${pad}", auth: { bearer: "\${TOKEN}" }, ${once} }`,
      ),
      ...pads.map(
        (pad) => `  slack-${pad}: { type: slack, webhook_url: "\${ECHO}/services/\${SLACK_PATH}?pad=${pad}", ${once} }`,
      ),
      ...pads.map(
        (pad) =>
          `  basic-${pad}: { type: http, url: "\${ECHO}/b?pad=${pad}", auth: { username: "\${BASIC_USER}", password: "\${BASIC_PASS}" }, ${once} }`,
      ),
    ];
    const names = targets.map((line) => line.trim().split(':')[0] ?? '');
    const rules = `targets:\n${targets.join('\n')}\nroutes:\n  - { name: all, to: [${names.join(', ')}] }\n`;
    const reader = newApiKey();
    const env = {
      ECHO: receiver.url,
      TOKEN: BEARER,
      SLACK_PATH,
      BASIC_USER,
      BASIC_PASS,
    };
    const config = `admin:\n  listen: { port: 0 }\n  keys: [{ name: dashboard, hash: "${reader.hash}", scopes: [read] }]`;
    daemon = await startTestDaemon(tempDir(), { rules, env, config });
    const running = daemon;
    const posted = await postWebhook(running.url, envelope('incident.created', { severity: 'high', title: 'x' }), {
      secret: SOURCE_SECRET,
    });
    expect(posted.status).toBe(200);

    const db = new Database(running.dbPath, { readonly: true });
    closers.push(async () => db.close());
    const dead = () => db.prepare("SELECT count(*) FROM deliveries WHERE state = 'dead'").pluck().get() as number;
    await waitFor(dead, (n) => n === names.length, 15_000);
    const ids = db.prepare("SELECT 'dlv_' || id FROM deliveries").pluck().all() as string[];
    const records = JSON.stringify([
      db.prepare('SELECT target, last_error FROM deliveries').all(),
      db.prepare('SELECT detail FROM attempts').all(),
    ]);

    // What an operator sees: `switchyard deliveries` (a real process), each delivery with its attempts, and
    // the admin API.
    const cliEnv = { SWITCHYARD_CONFIG: path.join(running.dir, 'switchyard.yaml') };
    const listing = spawnCli(['deliveries', '--limit', '1000'], cliEnv);
    expect({ code: await listing.exited, err: listing.stderr() }).toEqual({ code: 0, err: '' });
    let shown = listing.stdout();
    for (const id of ids) {
      const io = fakeCliIo(running.dir, cliEnv);
      expect({ code: await runDeliveries([id, '--json'], io), err: io.err() }).toEqual({ code: 0, err: '' });
      shown += io.out();
    }
    const api = `http://127.0.0.1:${running.running.adminPort}/api/v1`;
    const get = async (route: string) =>
      (await fetch(`${api}${route}`, { headers: { authorization: `Bearer ${reader.key}` } })).text();
    let served = (await get('/deliveries?limit=100')) + (await get('/dead-letters'));
    for (const id of ids) served += await get(`/deliveries/${id}`);
    const logs = running.rawLogs();

    // The secrets did reach the records' cut: the excerpts are there, masked.
    expect(records).toContain('[redacted]');
    expect(shown).toContain('HTTP 500: xxxx');
    expect(served).toContain('Slack answered HTTP 500: xxxx');
    const everywhere = { records, shown, served, logs };
    const secrets = [BEARER, SLACK_PATH, ...SLACK_PATH.split('/'), ...BASIC_FORMS.slice(2)];
    for (const [where, text] of Object.entries(everywhere)) {
      for (const secret of secrets) {
        for (const piece of prefixes(secret)) expect(text, `${where}: ${piece} of ${secret}`).not.toContain(piece);
      }
      for (const form of BASIC_FORMS) expect(text, `${where}: ${form}`).not.toContain(form);
    }

    // Not one encoding of the Basic credential in the journal's bytes (its file and write-ahead log).
    const files = [running.dbPath, `${running.dbPath}-wal`].filter((file) => existsSync(file));
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
    expect(BASIC_FORMS.map((form) => count(bytes, form))).toEqual(BASIC_FORMS.map(() => 0));
    expect([BEARER, SLACK_PATH].map((secret) => count(bytes, secret))).toEqual([0, 0]);
  }, 60_000);

  it('masks the SMTP password but not its user name, nor an ordinary URL path', async () => {
    const receiver = await startEchoReceiver();
    const smtp = await startSmtpServer({
      auth: { user: 'switchyard', pass: SMTP_PASS },
      data: () => ({ code: 554, message: `rejected for switchyard with ${SMTP_PASS}` }),
    });
    closers.push(receiver.close, () => smtp.close());
    const rules = `targets:
  tickets: { type: http, url: "\${TICKETS_URL}", retry: { max_attempts: 1 } }
  mail:
    type: email
    smtp: { url: "\${SMTP_URL}" }
    from: switchyard@example.com
    to: [soc@example.com]
    retry: { max_attempts: 1 }
routes:
  - { name: all, to: [tickets, mail] }
`;
    const env = {
      // An ordinary API path, with a digit in a segment: the echo receiver names it in its answer.
      TICKETS_URL: `${receiver.url}/api/v2/tickets`,
      SMTP_URL: `smtp://switchyard:${SMTP_PASS}@127.0.0.1:${smtp.port}?allow_insecure_auth=true`,
    };
    daemon = await startTestDaemon(tempDir(), { rules, env });
    const running = daemon;
    const body = envelope('incident.created', { severity: 'high', title: 'x' });
    expect((await postWebhook(running.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
    const db = new Database(running.dbPath, { readonly: true });
    closers.push(async () => db.close());
    const dead = () => db.prepare("SELECT count(*) FROM deliveries WHERE state = 'dead'").pluck().get() as number;
    await waitFor(dead, (n) => n === 2, 15_000);
    const records = JSON.stringify(db.prepare('SELECT detail FROM attempts ORDER BY delivery_id').all());
    const logs = running.rawLogs();

    expect(logs).toContain('"message":"switchyard listening"');
    expect(records).toContain('HTTP 500: /api/v2/tickets');
    expect(records).toContain('rejected for switchyard with [redacted]');
    expect(logs).toContain('/api/v2/tickets');
    for (const text of [records, logs]) expect(text).not.toContain(SMTP_PASS);
  }, 30_000);
});
