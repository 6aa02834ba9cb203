import { mkdtempSync, rmSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEmailJob } from './make-email-job.js';
import { makeEmailSpec, makeSmtp } from './make-email-spec.js';
import { makeSelfSignedCert } from './make-self-signed-cert.js';
import { never, useEmailTargets } from './use-email-targets.js';

const use = useEmailTargets();
let pem: { key: string; cert: string };
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchyard-tls-'));
  pem = makeSelfSignedCert(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const smtp = (port: number, options: { secure?: boolean; requireTls?: boolean; host?: string; ca?: string } = {}) =>
  makeSmtp(port, {
    host: options.host ?? 'localhost',
    secure: options.secure ?? false,
    requireTls: options.requireTls ?? false,
    auth: { user: 'mailer', pass: 'tls-pass' },
    ca: options.ca === undefined ? null : { pem: options.ca },
  });
/** Every name resolves to the loopback server; the certificate names `localhost` only. */
const lookup: LookupFunction = (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
const localhost = { lookup };

describe('e-mail target: TLS', () => {
  it('upgrades with STARTTLS, checks the certificate against the host name, then logs in and sends', async () => {
    const server = await use.server({ tls: pem, auth: { user: 'mailer', pass: 'tls-pass' } });
    const spec = makeEmailSpec(server.port, { smtp: smtp(server.port, { requireTls: true, ca: pem.cert }) });

    const outcome = await use.target(spec, localhost).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'delivered' });
    expect(server.messages[0]).toMatchObject({ secure: true, user: 'mailer' });
  });

  it('speaks TLS from the first byte with secure: true (port 465 style)', async () => {
    const server = await use.server({ tls: pem, secure: true, auth: { user: 'mailer', pass: 'tls-pass' } });
    const spec = makeEmailSpec(server.port, { smtp: smtp(server.port, { secure: true, ca: pem.cert }) });

    const outcome = await use.target(spec, localhost).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'delivered' });
    expect(server.messages[0]).toMatchObject({ secure: true, user: 'mailer' });
  });

  it('dead-letters an untrusted certificate at once, saying to set smtp.ca, sending nothing', async () => {
    const server = await use.server({ tls: pem, auth: { user: 'mailer', pass: 'tls-pass' } });
    const spec = makeEmailSpec(server.port, { smtp: smtp(server.port, { requireTls: true }) });

    const outcome = await use.target(spec, localhost).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringMatching(/self[- ]signed certificate/i) });
    expect(outcome.kind === 'permanent' && outcome.error).toContain('set smtp.ca');
    expect(server.messages).toEqual([]);
    expect(server.failedLogins).toEqual([]);
  });

  it('refuses a trusted certificate issued for another name than the configured host', async () => {
    const server = await use.server({ tls: pem, auth: { user: 'mailer', pass: 'tls-pass' } });
    const spec = makeEmailSpec(server.port, {
      smtp: smtp(server.port, { requireTls: true, host: 'mail.test', ca: pem.cert }),
    });

    const outcome = await use.target(spec, localhost).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('mail.test') });
    expect(server.messages).toEqual([]);
  });

  it('is permanent when TLS is required but the server does not offer STARTTLS; the password is never sent', async () => {
    const server = await use.server({ auth: { user: 'mailer', pass: 'tls-pass' } });
    const spec = makeEmailSpec(server.port, { smtp: smtp(server.port, { requireTls: true }) });

    const outcome = await use.target(spec, localhost).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('STARTTLS') });
    expect(outcome.kind === 'permanent' && outcome.status).toBeGreaterThanOrEqual(500);
    expect(server.messages).toEqual([]);
    expect(server.failedLogins).toEqual([]);
  });
});
