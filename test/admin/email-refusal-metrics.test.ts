import { afterEach, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startSmtpServer, type RunningSmtpServer } from '../helpers/start-smtp-server.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const TOKEN = 'metrics-token-0123456789abcdef';
let daemon: TestDaemon | undefined;
let smtp: RunningSmtpServer | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
  await smtp?.close();
  smtp = undefined;
});

const SERIES = 'switchyard_email_recipients_refused_total{target="mail"}';

async function scrape(d: TestDaemon): Promise<string> {
  const response = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return response.text();
}

describe('/metrics: e-mail recipients the SMTP server refused', () => {
  it('counts and logs a recipient refused while the others got the message, and dead-letters its 550', async () => {
    smtp = await startSmtpServer({ rcpt: (n) => (n === 2 ? { code: 550, message: '5.1.1 Blocked' } : 'accept') });
    const rules = `targets:
  mail: { type: email, smtp: { host: 127.0.0.1, port: ${smtp.port} }, from: switchyard@example.com, to: [soc@example.com, oncall@example.com] }
routes:
  - { name: all, to: [mail] }
`;
    daemon = await startTestDaemon(tempDir(), { rules, env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    const running = daemon;
    expect(await scrape(running)).toMatch(/^# TYPE switchyard_email_recipients_refused_total counter$/m);

    await postWebhook(running.url, envelope('incident.created', { severity: 'high' }), { secret: SOURCE_SECRET });

    const deadline = Date.now() + 10_000;
    let text = await scrape(running);
    while (!text.includes(`${SERIES} 1`) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await scrape(running);
    }
    expect(text).toMatch(/^switchyard_email_recipients_refused_total\{target="mail"\} 1$/m);
    expect(await running.deliveries()).toMatchObject([
      {
        state: 'dead',
        lastError: expect.stringMatching(
          /oncall@example\.com \(550 5\.1\.1 Blocked\).*\[still owed: oncall@example\.com\]$/,
        ),
      },
    ]);
    expect(running.logs().filter((line) => line['message'] === 'e-mail recipients refused')).toMatchObject([
      { level: 'warn', target: 'mail', refused: ['oncall@example.com'], outcome: 'dead' },
    ]);
    expect(smtp.messages.map((message) => message.rcptTo)).toEqual([['soc@example.com']]);
  });
});
