import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor-command.js';
import { PRIVATE_CA } from '../helpers/private-ca.js';
import { startSmtpServer, type RunningSmtpServer, type StartSmtpServerOptions } from '../helpers/start-smtp-server.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';

const tempDir = useTempDirs();
const AUTH = { user: 'mailer', pass: 'doctor-smtp-pass-0123' };
const CONFIG = `listen: { host: 127.0.0.1, port: 0 }
rules: ./rules.yaml
store: { sqlite: { path: ./journal.db } }
sources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }
`;
let servers: RunningSmtpServer[] = [];
let dir: string;

beforeEach(() => {
  dir = tempDir();
  writeFileSync(path.join(dir, 'switchyard.yaml'), CONFIG);
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server(options: StartSmtpServerOptions): Promise<RunningSmtpServer> {
  const started = await startSmtpServer(options);
  servers.push(started);
  return started;
}

/** doctor's lines about the target `mail`, whose `smtp:` is `smtp` (YAML), with SMTP_PASS set. */
async function doctorMail(smtp: string): Promise<string> {
  writeFileSync(
    path.join(dir, 'rules.yaml'),
    `targets:\n  mail:\n    type: email\n    smtp: ${smtp}\n    from: switchyard@example.com\n    to: [soc@example.com]\n` +
      'routes: []\nfallback: [mail]\n',
  );
  const io = fakeCliIo(dir, { MONITOR_SECRET: 'test-secret-0123456789abcdef', SMTP_PASS: AUTH.pass });
  await runDoctor(['--config', 'switchyard.yaml'], io);
  const out = io.out();
  expect(out + io.err()).not.toContain(AUTH.pass);
  const lines = out.split('\n');
  const first = lines.findIndex((line) => line.includes('target mail'));
  const rest = lines.slice(first + 1).findIndex((line) => !line.startsWith(' '));
  return lines
    .slice(first, first + 1 + rest)
    .map((line) => line.replace(/ {2,}/g, '  ').trim())
    .join('\n');
}

const login = `auth: { user: ${AUTH.user}, pass: "\${SMTP_PASS}" }`;

describe('switchyard doctor: e-mail targets', () => {
  it('fails, without logging in, where the password would go without TLS (the default)', async () => {
    const plain = await server({ auth: AUTH });

    const report = await doctorMail(`{ host: 127.0.0.1, port: ${plain.port}, ${login}, name: switchyard.example.com }`);

    expect(report).toMatch(/^FAIL {2}target mail {2}email smtp:\/\/127\.0\.0\.1:\d+: .*STARTTLS/);
    expect(plain.logins).toEqual([]);
  });

  it('warns plainly when a login went without TLS (allow_insecure_auth: true)', async () => {
    const plain = await server({ auth: AUTH });

    const report = await doctorMail(
      `{ host: 127.0.0.1, port: ${plain.port}, ${login}, allow_insecure_auth: true, name: switchyard.example.com }`,
    );

    expect(report).toContain('WARN  target mail');
    expect(report).toContain('no TLS, logged in WITHOUT TLS');
    expect(report).toContain('the password crossed the network in cleartext');
    expect(plain.logins).toEqual([{ user: AUTH.user, secure: false }]);
  });

  it('shows the certificate chain of a relay whose CA is not trusted, and says to set smtp.ca', async () => {
    const relay = await server({ auth: AUTH, tls: PRIVATE_CA.server });

    const report = await doctorMail(`{ host: 127.0.0.1, port: ${relay.port}, ${login}, name: switchyard.example.com }`);

    expect(report).toMatch(/^FAIL {2}target mail {2}email smtp:\/\/127\.0\.0\.1:\d+: .*set smtp\.ca/);
    expect(report).toContain(
      'certificate chain:\n0: CN=localhost (issued by CN=Switchyard Test CA, O=Switchyard Tests',
    );
    expect(relay.logins).toEqual([]);
  });

  it('verifies the relay with ca, logging in over TLS, and shows the chain', async () => {
    const relay = await server({ auth: AUTH, tls: PRIVATE_CA.server });

    const report = await doctorMail(
      `{ host: 127.0.0.1, port: ${relay.port}, ${login}, ca: ${PRIVATE_CA.caFile}, name: switchyard.example.com }`,
    );

    expect(report).toMatch(
      /^OK {2}target mail {2}email smtp:\/\/127\.0\.0\.1:\d+: SMTP server verified \(EHLO as switchyard\.example\.com, TLS, logged in over TLS\); no mail sent\ncertificate chain:\n0: CN=localhost/,
    );
    expect(relay.logins).toEqual([{ user: AUTH.user, secure: true }]);
  });

  it('warns when the EHLO name is not a domain name, the default one included on a host without one', async () => {
    const plain = await server({});

    const named = await doctorMail(`{ host: 127.0.0.1, port: ${plain.port}, name: mailer }`);
    const byDefault = await doctorMail(`{ host: 127.0.0.1, port: ${plain.port} }`);

    expect(named).toContain('WARN  target mail');
    expect(named).toContain('the EHLO name mailer is not a domain name');
    expect(named).toContain('set smtp.name');
    // nodemailer's default: the host's name when it has a dot, else [127.0.0.1].
    const defaultName = hostname().includes('.') ? hostname() : '[127.0.0.1]';
    expect(byDefault).toContain(`EHLO as ${defaultName}`);
    expect(byDefault.includes('is not a domain name')).toBe(!hostname().includes('.'));
  });
});
