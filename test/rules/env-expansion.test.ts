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
    // A URL's path travels on its own (a receiver echoing the path), so it is a secret too; segments shorter
    // than 8 characters are not.
    expect([...result.rules.secrets].sort()).toEqual(
      [SECRET, '/services/T000/B000/very-secret-value', 'services/T000/B000/very-secret-value', 'tok-123456'].sort(),
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
