import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { EmailTargetSpec } from '../../../src/rules/rules.js';
import { PRIVATE_CA } from '../../helpers/private-ca.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeEmailJob } from './make-email-job.js';
import { never, useEmailTargets } from './use-email-targets.js';

const use = useEmailTargets();
const { compile } = rulesLoader();
const AUTH = { user: 'mailer', pass: 'relay-pass-0123' };
/** Every name resolves to the loopback server (the private CA's certificate names localhost). */
const lookup: LookupFunction = (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);

/** The `mail` target of a rules file whose `smtp:` is `smtp` (YAML), compiled as the daemon does. */
function mailSpec(smtp: string, env: Record<string, string> = {}): EmailTargetSpec {
  const text =
    `targets:\n  mail:\n    type: email\n    smtp: ${smtp}\n    from: switchyard@example.com\n` +
    '    to: [soc@example.com]\nroutes: [{ name: r, to: [mail] }]\nfallback: []\n';
  return compile(text, env).targets.get('mail') as EmailTargetSpec;
}

describe('e-mail target: the password never goes in cleartext unless allowed', () => {
  it('refuses to log in to a server that offers AUTH without STARTTLS, from the URL form by default', async () => {
    const server = await use.server({ auth: AUTH });
    const spec = mailSpec('{ url: "${SMTP_URL}" }', {
      SMTP_URL: `smtp://${AUTH.user}:${AUTH.pass}@127.0.0.1:${server.port}`,
    });

    const outcome = await use.target(spec).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('STARTTLS') });
    expect(server.logins).toEqual([]);
    expect(server.messages).toEqual([]);
  });

  it('logs in without TLS only with allow_insecure_auth=true', async () => {
    const server = await use.server({ auth: AUTH });
    const spec = mailSpec('{ url: "${SMTP_URL}" }', {
      SMTP_URL: `smtp://${AUTH.user}:${AUTH.pass}@127.0.0.1:${server.port}?allow_insecure_auth=true`,
    });

    expect(await use.target(spec).send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });
    expect(server.logins).toEqual([{ user: AUTH.user, secure: false }]);
  });
});

describe('e-mail target: a relay with a certificate from a private CA', () => {
  it('sends over STARTTLS when ca names the CA, as a file or as PEM text from the environment', async () => {
    const server = await use.server({ auth: AUTH, tls: PRIVATE_CA.server });
    const host = `host: localhost, port: ${server.port}, auth: { user: ${AUTH.user}, pass: ${AUTH.pass} }`;
    const fromFile = mailSpec(`{ ${host}, ca: ${PRIVATE_CA.caFile} }`);
    const fromEnv = mailSpec(`{ ${host}, ca: "\${RELAY_CA}" }`, { RELAY_CA: PRIVATE_CA.ca });

    for (const spec of [fromFile, fromEnv]) {
      expect(await use.target(spec, { lookup }).send(makeEmailJob(), never())).toMatchObject({ kind: 'delivered' });
    }
    expect(server.messages.map((message) => message.secure)).toEqual([true, true]);
    expect(server.logins).toEqual([
      { user: AUTH.user, secure: true },
      { user: AUTH.user, secure: true },
    ]);
  });

  it('dead-letters at once without ca, saying to set smtp.ca; nothing is sent, no login tried', async () => {
    const server = await use.server({ auth: AUTH, tls: PRIVATE_CA.server });
    const spec = mailSpec(
      `{ host: localhost, port: ${server.port}, auth: { user: ${AUTH.user}, pass: ${AUTH.pass} } }`,
    );

    const outcome = await use.target(spec, { lookup }).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('set smtp.ca') });
    expect(server.logins).toEqual([]);
    expect(server.messages).toEqual([]);
  });

  it('cannot be set up when the ca file cannot be read', () => {
    const spec = mailSpec('{ host: localhost, ca: /nonexistent/relay-ca.pem }');
    expect(() => use.target(spec)).toThrow('cannot read the ca file /nonexistent/relay-ca.pem (ENOENT)');
  });
});

describe('e-mail target: the EHLO name', () => {
  it('says the configured name, from the option or the URL parameter', async () => {
    const server = await use.server();
    const asOption = mailSpec(`{ host: 127.0.0.1, port: ${server.port}, name: mailer.example.com }`);
    const inUrl = mailSpec('{ url: "${SMTP_URL}" }', {
      SMTP_URL: `smtp://127.0.0.1:${server.port}?name=relay-client.example.com`,
    });

    for (const spec of [asOption, inUrl]) await use.target(spec).send(makeEmailJob(), never());

    expect(server.messages.map((message) => message.ehlo)).toEqual(['mailer.example.com', 'relay-client.example.com']);
  });
});
