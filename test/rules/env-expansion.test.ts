import { describe, expect, it } from 'vitest';
import { rulesLoader } from './support/load-rules-text.js';

const { load } = rulesLoader();
const SECRET = 'https://hooks.slack.example/services/T000/B000/very-secret-value';
const TEXT = `targets:
  chat: { type: slack, webhook_url: "\${SLACK_URL}" }
  tickets:
    type: http
    url: https://tickets.example/api
    headers: { Authorization: "Bearer \${TICKETS_TOKEN}" }
routes:
  - { name: all, match: { where: [{ field: data.title, equals: "\${NOT_EXPANDED}" }] }, to: [chat, tickets] }
fallback: []
`;

describe('${VAR} references', () => {
  it('expands target options and lists every substituted value as a secret', () => {
    const result = load(TEXT, { SLACK_URL: SECRET, TICKETS_TOKEN: 'tok-123456' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rules.targets.get('chat')).toMatchObject({ type: 'slack', webhookUrl: SECRET });
    expect(result.rules.targets.get('tickets')).toMatchObject({ headers: { Authorization: 'Bearer tok-123456' } });
    // A Slack webhook's path travels on its own (a receiver echoing the path), so it is a secret too, whole
    // and by segment; segments shorter than 8 characters are not.
    expect([...result.rules.secrets].sort()).toEqual(
      [
        SECRET,
        '/services/T000/B000/very-secret-value',
        'services/T000/B000/very-secret-value',
        'T000/B000/very-secret-value',
        'very-secret-value',
        'tok-123456',
      ].sort(),
    );
  });

  it('masks credentials, not the names and addresses that came from the environment too', () => {
    const text = `targets:
  mail:
    type: email
    smtp: { host: "\${SMTP_HOST}", port: 587, auth: { user: "\${SMTP_USER}", pass: "\${SMTP_PASS}" } }
    from: "\${MAIL_FROM}"
    to: ["\${MAIL_TO}"]
  tickets:
    type: http
    url: "https://tickets.example/api/v2/\${TICKETS_PATH}"
    auth: { username: "\${TICKETS_USER}", password: "\${TICKETS_PASS}" }
    headers: { X-Api-Key: "\${TICKETS_KEY}" }
    body: { key: "\${BODY_KEY}" }
    sign: { secret: "\${SIGNING}" }
  plain:
    type: http
    url: "\${PLAIN_URL}"
  composed:
    type: http
    url: "\${BASE_URL}/hooks/\${HOOK_TOKEN}"
routes: []
fallback: []
`;
    const env = {
      SMTP_HOST: 'mail.example',
      SMTP_USER: 'switchyard',
      SMTP_PASS: 'smtp-pass-1234',
      MAIL_FROM: 'switchyard@example.com',
      MAIL_TO: 'soc@example.com',
      TICKETS_PATH: 'hooks/abc123',
      TICKETS_USER: 'api-user',
      TICKETS_PASS: 'basic-pass-5678',
      TICKETS_KEY: 'key-9999',
      BODY_KEY: 'body-key-0000',
      SIGNING: 'signing-secret-0123456789',
      PLAIN_URL: 'https://tickets.example/api/v2/tickets',
      BASE_URL: 'https://hooks.example/api/v2',
      HOOK_TOKEN: 'hook-token-4321',
    };
    const result = load(text, env);
    expect(result.ok ? [...result.rules.secrets].sort() : result.problems).toEqual(
      [
        'smtp-pass-1234',
        'switchyard:smtp-pass-1234',
        '\u0000switchyard\u0000smtp-pass-1234',
        'hooks/abc123',
        'basic-pass-5678',
        'api-user:basic-pass-5678',
        '\u0000api-user\u0000basic-pass-5678',
        'key-9999',
        'body-key-0000',
        'signing-secret-0123456789',
        'https://tickets.example/api/v2/tickets',
        // A URL from a variable is masked as a URL (whole, not its ordinary path); another part whole.
        'https://hooks.example/api/v2',
        'hook-token-4321',
      ].sort(),
    );
  });

  it('reports a missing variable by name, at the value, as an error', () => {
    const result = load(TEXT, { SLACK_URL: SECRET });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const errors = result.problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'missing_env',
        message: 'environment variable TICKETS_TOKEN is not set (or empty)',
        line: 6,
        column: 31,
      }),
    ]);
    expect(JSON.stringify(result.problems)).not.toContain(SECRET);
  });

  it('with requireEnv: false, warns and keeps the reference as a placeholder', () => {
    const result = load(TEXT, {}, { requireEnv: false });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings.filter((w) => w.code === 'missing_env').map((w) => w.message)).toEqual([
      'environment variable SLACK_URL is not set (or empty); a placeholder is used',
      'environment variable TICKETS_TOKEN is not set (or empty); a placeholder is used',
    ]);
    expect(result.rules.targets.get('chat')).toMatchObject({ webhookUrl: '${SLACK_URL}' });
    expect(result.rules.secrets).toEqual([]);
  });

  it('names the variable, never the value, when an expanded value is invalid', () => {
    const result = load(TEXT, { SLACK_URL: 'not a url but secret-ish', TICKETS_TOKEN: 'tok-123456' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({
      message: 'targets.chat.webhook_url: must be an http:// or https:// URL (from ${SLACK_URL})',
      line: 2,
      column: 37,
    });
    expect(JSON.stringify(result.problems)).not.toContain('secret-ish');
  });

  it('does not expand references outside target options, and warns about them', () => {
    const result = load(TEXT, { SLACK_URL: SECRET, TICKETS_TOKEN: 'tok-123456', NOT_EXPANDED: 'x' });
    expect(result.ok && result.warnings.map((w) => [w.code, w.line])).toEqual([['env_not_expanded', 8]]);
  });

  it('rejects a malformed reference', () => {
    const result = load(TEXT.replace('${SLACK_URL}', '${SLACK_URL'), { TICKETS_TOKEN: 'tok-123456' });
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toContain('env_syntax');
  });
});
