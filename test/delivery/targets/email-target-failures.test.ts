import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../../src/switchyard-error.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import type { Template } from '../../../src/templates/template.js';
import { always, failTimes, startSmtpServer } from '../../helpers/start-smtp-server.js';
import { makeEmailJob } from './make-email-job.js';
import { makeEmailSpec, makeSmtp } from './make-email-spec.js';
import { never, useEmailTargets } from './use-email-targets.js';

const use = useEmailTargets();

const rawServers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(rawServers.splice(0).map((server) => server.close()));
});

/** A TCP listener that is no SMTP server: it never says a word, or hangs up at once (`drop`). */
async function startRawServer(behaviour: 'silent' | 'drop'): Promise<{ port: number; connections: () => number }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket.on('error', () => {}));
    if (behaviour === 'drop') socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rawServers.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return { port: (server.address() as AddressInfo).port, connections: () => sockets.size };
}

describe('e-mail target: failures become outcomes', () => {
  it('retries on a 4xx answer to DATA, then delivers once the server accepts', async () => {
    const server = await use.server({
      data: failTimes(1, { code: 451, message: '4.3.0 Mail server temporarily rejected message' }),
    });
    const target = use.target(makeEmailSpec(server.port));
    const job = makeEmailJob();

    const first = await target.send(job, never());
    const second = await target.send({ ...job, attempt: 2 }, never());

    expect(first).toMatchObject({ kind: 'retry', status: 451 });
    expect(first.kind === 'retry' && first.error).toContain('4.3.0 Mail server temporarily rejected message');
    expect(second).toMatchObject({ kind: 'delivered', status: 250 });
    expect(server.messages).toHaveLength(1);
  });

  it('retries on a 4xx answer to RCPT TO (greylisting)', async () => {
    const server = await use.server({
      rcpt: failTimes(1, { code: 450, message: '4.2.0 Greylisted, try again later' }),
    });
    const target = use.target(makeEmailSpec(server.port));

    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'retry', status: 450 });
    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });
  });

  it('is permanent on a 5xx answer to DATA or RCPT TO, and nothing is stored', async () => {
    const dataServer = await use.server({ data: always({ code: 554, message: '5.7.1 Message rejected as spam' }) });
    const rcptServer = await use.server({ rcpt: always({ code: 550, message: '5.1.1 No such user' }) });

    const data = await use.target(makeEmailSpec(dataServer.port)).send(makeEmailJob(), never());
    const rcpt = await use.target(makeEmailSpec(rcptServer.port)).send(makeEmailJob(), never());

    expect(data).toMatchObject({ kind: 'permanent', status: 554 });
    expect(data.kind === 'permanent' && data.error).toContain('5.7.1 Message rejected as spam');
    expect(rcpt).toMatchObject({ kind: 'permanent', status: 550 });
    expect(rcpt.kind === 'permanent' && rcpt.error).toContain('5.1.1 No such user');
    expect([...dataServer.messages, ...rcptServer.messages]).toEqual([]);
  });

  it('with on_partial_refusal: delivered, is delivered when one of two recipients is refused, naming it', async () => {
    const server = await use.server({
      rcpt: (n) => (n === 1 ? { code: 550, message: '5.1.1 No such user' } : 'accept'),
    });
    const spec = makeEmailSpec(server.port, {
      to: ['gone@example.com', 'soc@example.com'],
      onPartialRefusal: 'delivered',
    });

    const outcome = await use.target(spec).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'delivered', status: 250, refused: ['gone@example.com'] });
    expect(outcome.kind === 'delivered' && outcome.detail).toBe(
      '250 Queued as m1; accepted for soc@example.com; refused for gone@example.com (550 5.1.1 No such user)',
    );
    expect(server.messages[0]?.rcptTo).toEqual(['soc@example.com']);
  });

  it('is permanent when the login fails, and the excerpt shows neither password nor user', async () => {
    const server = await use.server({ auth: { user: 'mailer', pass: 'right-pass' } });
    const auth = { user: 'mailer-account', pass: 'wrong-pass-123' };
    const spec = makeEmailSpec(server.port, { smtp: makeSmtp(server.port, { auth, allowInsecureAuth: true }) });

    for (const _ of [1, 2]) {
      const outcome = await use.target(spec).send(makeEmailJob(), never());
      expect(outcome).toMatchObject({ kind: 'permanent', status: 535 });
      const text = JSON.stringify(outcome);
      for (const secret of [auth.pass, auth.user, Buffer.from(auth.pass).toString('base64')]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(server.failedLogins).toEqual(['mailer-account', 'mailer-account']);
    expect(server.messages).toEqual([]);
  });

  it('retries when the server is down (connection refused)', async () => {
    const server = await startSmtpServer();
    const port = server.port;
    await server.close();

    const outcome = await use.target(makeEmailSpec(port)).send(makeEmailJob(), never());

    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' && outcome.error).toContain('ECONNREFUSED');
  });

  it('makes one connection per send when the server hangs up before greeting (no retrying inside nodemailer)', async () => {
    const server = await startRawServer('drop');
    const target = use.target(makeEmailSpec(server.port));

    const outcome = await target.send(makeEmailJob(), never());
    await new Promise((resolve) => setTimeout(resolve, 300)); // nodemailer's own requeue would reconnect by now

    expect(outcome).toMatchObject({ kind: 'retry', error: expect.stringContaining('connection closed') });
    expect(server.connections()).toBe(1);
  });

  it('retries when the server never greets, within the target timeout', async () => {
    const { port } = await startRawServer('silent');
    const target = use.target(makeEmailSpec(port, { policy: { timeoutMs: 300 } }));

    const outcome = await target.send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'retry' });
    expect(outcome.kind === 'retry' && outcome.error).toMatch(/timed out|timeout/i);
  });

  it('answers retry when the shutdown signal aborts a send in flight, or was aborted before', async () => {
    const { port } = await startRawServer('silent');
    const target = use.target(makeEmailSpec(port, { policy: { timeoutMs: 10_000 } }));
    const controller = new AbortController();
    const pending = target.send(makeEmailJob(), controller.signal);
    setTimeout(() => controller.abort(), 50);

    expect(await pending).toMatchObject({ kind: 'retry', error: expect.stringContaining('cancelled') });
    expect(await target.send(makeEmailJob(), controller.signal)).toMatchObject({ kind: 'retry' });
  });

  it('is permanent, with the template named, when a template fails to render; nothing is sent', async () => {
    const server = await use.server();
    const throwing: Template = {
      source: '{{ boom }}',
      render() {
        throw new SwitchyardError('template_render', 'template failed to render: boom');
      },
    };
    const hungry = compileTemplate('{% for i in (1..100000000) %}x{% endfor %}');

    const first = await use.target(makeEmailSpec(server.port, { subject: throwing })).send(makeEmailJob(), never());
    const second = await use.target(makeEmailSpec(server.port, { text: hungry })).send(makeEmailJob(), never());

    expect(first).toEqual({ kind: 'permanent', error: expect.stringContaining('e-mail subject template') });
    expect(first.kind === 'permanent' && first.error).toContain('boom');
    expect(second).toEqual({ kind: 'permanent', error: expect.stringContaining('e-mail text template') });
    expect(server.messages).toEqual([]);
    expect(server.connections()).toBe(0);
  });

  it('answers retry after close() and closing twice is harmless', async () => {
    const server = await use.server();
    const target = use.target(makeEmailSpec(server.port));
    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });

    await target.close();
    await target.close();

    expect(await target.send(makeEmailJob(), never())).toMatchObject({ kind: 'retry' });
  });
});
