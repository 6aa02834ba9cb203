import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook, sign } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { startSmtpServer, type RunningSmtpServer } from '../helpers/start-smtp-server.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from '../delivery/engine/engine-harness.js';

const tempDir = useTempDirs();

// Every kind of secret the daemon handles, each distinctive enough to grep for.
const SECRETS = {
  adminToken: 'ADMIN-TOKEN-zq81mxv0c7lw5e2r',
  slackPath: 'T0SECRET/B0SECRET/slackSECRETxyz123',
  bearer: 'BEARER-zz9plm30vb72kq',
  querySecret: 'QUERYKEY-55mmqq88vv',
  smtpPass: 'SMTP-PASS-r8t3y6u9i0',
  signing: 'SIGNING-SECRET-4f5g6h7j8k9l0z',
};

describe('no secret reaches a log line, an attempt record or a CLI-visible error', () => {
  const closers: (() => Promise<unknown>)[] = [];
  let daemon: TestDaemon | undefined;
  afterEach(async () => {
    await daemon?.running.close();
    for (const close of closers.splice(0)) await close();
  });

  it('masks secrets on every path: start-up, rejections, reload failures, failed and dead deliveries', async () => {
    // Hostile receivers echo the secrets back in their error answers.
    const echo = Object.values(SECRETS).join(' ');
    const slack: HttpReceiver = await startHttpReceiver({ default: { status: 500, body: `rollup_error ${echo}` } });
    const tickets = await startHttpReceiver({ default: { status: 400, body: `bad request from ${echo}` } });
    const smtp: RunningSmtpServer = await startSmtpServer({
      auth: { user: 'switchyard', pass: SECRETS.smtpPass },
      data: () => ({ code: 554, message: `rejected ${echo}` }),
    });
    closers.push(
      () => slack.close(),
      () => tickets.close(),
      () => smtp.close(),
    );

    const rules = `
targets:
  chat: { type: slack, webhook_url: "\${SLACK_URL}", retry: { max_attempts: 2, initial_delay: 10ms, max_delay: 10ms } }
  mail:
    type: email
    smtp: { url: "\${SMTP_URL}" }
    from: switchyard@example.com
    to: [soc@example.com]
  tickets:
    type: http
    url: "\${TICKETS_URL}"
    auth: { bearer: "\${TICKETS_TOKEN}" }
    sign: { secret: "\${SIGNING_SECRET}" }
routes:
  - { name: all, to: [chat, mail, tickets] }
`;
    const env = {
      SWITCHYARD_ADMIN_TOKEN: SECRETS.adminToken,
      SLACK_URL: `${slack.url}/services/${SECRETS.slackPath}`,
      SMTP_URL: `smtp://switchyard:${SECRETS.smtpPass}@127.0.0.1:${smtp.port}?allow_insecure_auth=true`,
      TICKETS_URL: `${tickets.url}/api?key=${SECRETS.querySecret}`,
      TICKETS_TOKEN: SECRETS.bearer,
      SIGNING_SECRET: SECRETS.signing,
    };
    daemon = await startTestDaemon(tempDir(), { rules, env, random: () => 0 });
    const running = daemon;

    const body = envelope('incident.created', { severity: 'critical', title: 'x' });
    expect((await postWebhook(running.url, body, { secret: SOURCE_SECRET })).status).toBe(200);
    // Rejections: a wrong signature, and the right signature on the wrong source.
    await postWebhook(running.url, body, { signature: sign(body, SOURCE_SECRET).replace(/.$/, '0') });
    await postWebhook(running.url, body, { source: 'other', secret: SOURCE_SECRET });
    // A reload that fails on a missing variable, and one on a bad value.
    writeFileSync(running.rulesPath, rules.replace('${TICKETS_URL}', '${MISSING_URL}'));
    running.running.reloadRules();
    // Metrics with the token.
    await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${SECRETS.adminToken}` } });

    const db = new Database(running.dbPath, { readonly: true });
    closers.push(async () => db.close());
    const finished = () =>
      db.prepare("SELECT count(*) AS n FROM deliveries WHERE state = 'dead'").pluck().get() as number;
    await waitFor(finished, (n) => n === 3, 10_000);

    const stored = JSON.stringify([
      db.prepare('SELECT last_error FROM deliveries').all(),
      db.prepare('SELECT detail FROM attempts').all(),
    ]);
    const logs = running.rawLogs();
    expect(logs).toContain('delivery dead-lettered');
    expect(stored).toContain('rollup_error');
    for (const [name, secret] of [...Object.entries(SECRETS), ['source secret', SOURCE_SECRET]] as const) {
      expect(logs, `${name} in the logs`).not.toContain(secret);
      expect(stored, `${name} in the journal's attempt records`).not.toContain(secret);
    }
    // Nor the signature sent with the request.
    expect(logs).not.toContain(sign(body, SOURCE_SECRET).slice(7));
  }, 30_000);
});
