import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import { parseRawMessage } from './parse-raw-message.js';
import { makeEmailJob } from './make-email-job.js';
import { makeEmailSpec, makeSmtp } from './make-email-spec.js';
import { never, useEmailTargets } from './use-email-targets.js';

const use = useEmailTargets();

describe('e-mail target: what the server receives', () => {
  it('sends the default message for the event kind to to and cc, with delivery headers', async () => {
    const server = await use.server();
    const target = use.target(
      makeEmailSpec(server.port, { to: ['soc-oncall@example.com'], cc: ['lead@example.com', 'audit@example.com'] }),
    );
    const job = makeEmailJob({ deliveryId: 'dlv_42' });

    const outcome = await target.send(job, never());

    expect(outcome).toMatchObject({ kind: 'delivered', status: 250 });
    expect(outcome.kind === 'delivered' && outcome.detail).toContain('Queued as m1');
    expect(server.messages).toHaveLength(1);
    const [received] = server.messages;
    expect(received?.mailFrom).toBe('switchyard@example.com');
    expect(received?.rcptTo).toEqual(['soc-oncall@example.com', 'lead@example.com', 'audit@example.com']);
    const mail = parseRawMessage(received?.raw ?? '');
    expect(mail.header('subject')).toBe('[CRITICAL] Incident created: Suspicious login');
    expect(mail.header('from')).toBe('Switchyard <switchyard@example.com>');
    expect(mail.header('to')).toBe('soc-oncall@example.com');
    expect(mail.header('cc')).toBe('lead@example.com, audit@example.com');
    expect(mail.header('x-switchyard-delivery')).toBe('dlv_42');
    expect(mail.header('x-switchyard-event')).toBe(job.event.id);
    expect(mail.header('message-id')).toBe(`<dlv_42.${job.event.id}@example.com>`);
    expect(mail.header('content-type')).toMatch(/^text\/plain/);
    expect(mail.html).toBeUndefined();
    expect(mail.text).toContain('Incident:');
    expect(mail.text).toContain('inc_1');
    expect(mail.text).toContain('"title": "Suspicious login"');
  });

  it('renders the subject, text and HTML templates with the event', async () => {
    const server = await use.server();
    const spec = makeEmailSpec(server.port, {
      subject: compileTemplate('{{ data.severity | upcase }}: {{ data.title }} ({{ switchyard.delivery_id }})'),
      text: compileTemplate('Incident {{ data.incident_id }} from {{ switchyard.source }}'),
      html: compileTemplate('<p>{{ data.title }}</p>', 'html'),
    });
    const job = makeEmailJob({
      deliveryId: 'dlv_7',
      data: { incident_id: 'inc_9', severity: 'high', title: '<b>Bold</b> & "quoted"' },
    });

    expect(await use.target(spec).send(job, never())).toMatchObject({ kind: 'delivered' });

    const mail = parseRawMessage(server.messages[0]?.raw ?? '');
    expect(mail.header('subject')).toBe('HIGH: <b>Bold</b> & "quoted" (dlv_7)');
    expect(mail.text).toBe('Incident inc_9 from monitor');
    expect(mail.html).toBe('<p>&lt;b&gt;Bold&lt;/b&gt; &amp; &#34;quoted&#34;</p>');
  });

  it('keeps a subject built from CR/LF and {{ in event data on one header line, adding no header or recipient', async () => {
    const server = await use.server();
    const title = 'Alert\r\nBcc: attacker@evil.example\r\nX-Injected: yes\n\n{{ switchyard.delivery_id }} {% raw %}';
    const job = makeEmailJob({ data: { severity: 'high', title } });
    const templated = use.target(makeEmailSpec(server.port, { subject: compileTemplate('Re: {{ data.title }}') }));
    const defaulted = use.target(makeEmailSpec(server.port));

    expect(await templated.send(job, never())).toMatchObject({ kind: 'delivered' });
    expect(await defaulted.send(job, never())).toMatchObject({ kind: 'delivered' });

    const [first, second] = server.messages.map((message) => parseRawMessage(message.raw));
    expect(first?.header('subject')).toBe(
      'Re: Alert Bcc: attacker@evil.example X-Injected: yes {{ switchyard.delivery_id }} {% raw %}',
    );
    expect(second?.header('subject')).toBe(
      '[HIGH] Incident created: Alert Bcc: attacker@evil.example X-Injected: yes {{ switchyard.delivery_id }} {% raw %}',
    );
    for (const mail of [first, second]) {
      expect(mail?.headers('subject')).toHaveLength(1);
      expect(mail?.headers('bcc')).toEqual([]);
      expect(mail?.headers('x-injected')).toEqual([]);
    }
    for (const message of server.messages) expect(message.rcptTo).toEqual(['soc-oncall@example.com']);
  });

  it('reuses one pooled connection for consecutive sends', async () => {
    const server = await use.server();
    const target = use.target(makeEmailSpec(server.port));

    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });
    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });

    expect(server.messages).toHaveLength(2);
    expect(server.connections()).toBe(1);
    expect(server.messages[0]?.sessionId).toBe(server.messages[1]?.sessionId);
  });

  it('opens at most `concurrency` connections for parallel sends', async () => {
    const server = await use.server();
    const target = use.target(makeEmailSpec(server.port, { policy: { concurrency: 2 } }));

    const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => target.send(makeEmailJob(), never())));

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(Array(5).fill('delivered'));
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('logs in with the configured credentials (over plain SMTP only with allow_insecure_auth)', async () => {
    const server = await use.server({ auth: { user: 'mailer', pass: 's3cret-pass' } });
    const auth = { user: 'mailer', pass: 's3cret-pass' };
    const spec = makeEmailSpec(server.port, { smtp: makeSmtp(server.port, { auth, allowInsecureAuth: true }) });

    expect(await use.target(spec).send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });
    expect(server.messages.map((message) => message.user)).toEqual(['mailer']);
  });

  it('resolves the SMTP host through the injected lookup', async () => {
    const server = await use.server();
    const asked: string[] = [];
    const spec = makeEmailSpec(server.port, {
      smtp: makeSmtp(server.port, { host: 'smtp.test' }),
    });
    const target = use.target(spec, {
      lookup: (hostname, _options, callback) => {
        asked.push(hostname);
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      },
    });

    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });
    expect(asked).toEqual(['smtp.test']);
  });
});
