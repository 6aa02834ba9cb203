import { describe, expect, it } from 'vitest';
import type { EmailTargetSpec } from '../../src/rules/rules.js';
import { rulesLoader } from './support/load-rules-text.js';

const { load, compile } = rulesLoader();
const PASS = 'smtp-url-pass-0123';

/** A rules file with one e-mail target whose `smtp:` is `smtp` (YAML flow map), the URL from `${SMTP_URL}`. */
const rulesWith = (smtp: string) =>
  `targets:\n  mail:\n    type: email\n    smtp: ${smtp}\n    from: a@example.com\n    to: [b@example.com]\n` +
  'routes: [{ name: r, to: [mail] }]\nfallback: []\n';

function problems(smtp: string, url?: string): string[] {
  const result = load(rulesWith(smtp), url === undefined ? {} : { SMTP_URL: url });
  return result.ok ? [] : result.problems.map((p) => `${p.code}: ${p.message}`);
}

const smtpOf = (smtp: string, url?: string) =>
  (compile(rulesWith(smtp), url === undefined ? {} : { SMTP_URL: url }).targets.get('mail') as EmailTargetSpec).smtp;

describe('SMTP settings: TLS in every form, and only documented URL parameters', () => {
  it('requires TLS through the URL parameter require_tls, or require_tls beside url', () => {
    const url = `smtp://mailer:${PASS}@mail.example.com:587`;
    expect(smtpOf('{ url: "${SMTP_URL}" }', `${url}?require_tls=true`)).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      requireTls: true,
      auth: { user: 'mailer', pass: PASS },
    });
    expect(smtpOf('{ url: "${SMTP_URL}", require_tls: true }', url)).toMatchObject({ requireTls: true });
    expect(smtpOf('{ url: "${SMTP_URL}" }', `smtp://mail.example.com?name=relay.example.com`)).toMatchObject({
      requireTls: false,
      auth: null,
      name: 'relay.example.com',
    });
  });

  it('requires TLS by default when there is a password, in both forms; allow_insecure_auth lifts it', () => {
    const url = `smtp://mailer:${PASS}@mail.example.com:587`;
    expect(smtpOf('{ url: "${SMTP_URL}" }', url)).toMatchObject({ requireTls: true, allowInsecureAuth: false });
    expect(smtpOf('{ host: mail.example.com, auth: { user: u, pass: p } }')).toMatchObject({ requireTls: true });
    expect(smtpOf('{ url: "${SMTP_URL}" }', `${url}?allow_insecure_auth=true`)).toMatchObject({
      requireTls: false,
      allowInsecureAuth: true,
    });
    expect(smtpOf('{ host: mail.example.com, auth: { user: u, pass: p }, allow_insecure_auth: true }')).toMatchObject({
      requireTls: false,
      allowInsecureAuth: true,
    });
  });

  it('refuses require_tls: false with a password unless allow_insecure_auth says so', () => {
    expect(problems('{ host: mail.example.com, require_tls: false, auth: { user: u, pass: p } }')).toEqual([
      'insecure_auth: targets.mail.smtp.require_tls: false with auth would send the password in cleartext to a ' +
        'server that does not offer STARTTLS; set allow_insecure_auth: true if that is intended',
    ]);
    expect(problems('{ url: "${SMTP_URL}" }', `smtp://u:${PASS}@mail.example.com?require_tls=false`)).toHaveLength(1);
  });

  it.each([
    'tls.rejectUnauthorized=false',
    'maxRequeues=5',
    'pool=false',
    'disableFileAccess=false',
    'requireTLS=true',
    'secure=false',
  ])('refuses the URL parameter ?%s, naming it but never the URL or password', (parameter) => {
    const key = parameter.split('=')[0] ?? '';
    const found = problems('{ url: "${SMTP_URL}" }', `smtp://mailer:${PASS}@mail.example.com:587?${parameter}`);
    expect(found).toEqual([
      `bad_url: targets.mail.smtp.url: URL parameter ${key} is not allowed (allowed: require_tls, allow_insecure_auth, name)`,
    ]);
    expect(found.join('\n')).not.toContain(PASS);
  });

  it('refuses a misspelt value, a path, and a setting given both in the URL and beside it', () => {
    expect(problems('{ url: "${SMTP_URL}" }', 'smtp://mail.example.com?require_tls=yes')).toEqual([
      'bad_url: targets.mail.smtp.url: URL parameter require_tls must be true or false',
    ]);
    expect(problems('{ url: "${SMTP_URL}" }', 'smtp://mail.example.com/inbox')).toHaveLength(1);
    expect(problems('{ url: "${SMTP_URL}", require_tls: true }', 'smtp://mail.example.com?require_tls=true')).toEqual([
      'conflicting_options: targets.mail.smtp.require_tls: require_tls is also set in the URL: give it once',
    ]);
  });

  it('takes ca as PEM text or an absolute path, and refuses anything else', () => {
    expect(smtpOf('{ host: mail.example.com, ca: /etc/switchyard/relay-ca.pem }')).toMatchObject({
      ca: { file: '/etc/switchyard/relay-ca.pem' },
    });
    expect(problems('{ host: mail.example.com, ca: relay-ca.pem }')).toEqual([
      'bad_ca: targets.mail.smtp.ca: must be PEM text (-----BEGIN CERTIFICATE-----) or an absolute path to a PEM file',
    ]);
    expect(problems('{ host: mail.example.com, ca: "-----BEGIN CERTIFICATE-----\\nnot base64\\n" }')).toEqual([
      'bad_ca: targets.mail.smtp.ca: is not a PEM certificate that can be read',
    ]);
  });
});
