import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check-command.js';
import type { SlackTargetSpec } from '../../src/rules/rules.js';
import { fakeCliIo } from './support/fake-cli-io.js';
import { rulesLoader } from './support/load-rules-text.js';
import { useTempDir } from './support/temp-dir.js';

const { load, compile } = rulesLoader();
const temp = useTempDir();
const TOKEN = 'xoxb-1111-2222-bot-token-secret';

/** A rules file whose only target is `chat`, written from line 2 on. */
const rules = (target: string) => `targets:\n${target}routes: [{ name: r, to: [chat] }]\nfallback: []\n`;

function problems(target: string, env: Record<string, string> = {}): string[] {
  const result = load(rules(target), env);
  const list = result.ok ? result.warnings : result.problems;
  return list
    .filter((p) => p.severity === 'error' && p.code !== 'unknown_target')
    .map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
}

describe('compiled Slack Web API targets', () => {
  it('take token and channel, with slack.com/api/ as the base URL and no webhook', () => {
    const spec = compile(rules(`  chat: { type: slack, token: "\${SLACK_BOT_TOKEN}", channel: "#soc-alerts" }\n`), {
      SLACK_BOT_TOKEN: TOKEN,
    }).targets.get('chat');
    expect(spec).toMatchObject({
      type: 'slack',
      token: TOKEN,
      channel: '#soc-alerts',
      webhookUrl: null,
      baseUrl: 'https://slack.com/api/',
      correlationKey: null,
      policy: { concurrency: 1, rateLimit: { perSecond: 1, burst: 5 } },
    });
  });

  it('take a base_url for tests, ending in a slash as the client appends method names', () => {
    const spec = compile(
      rules(`  chat: { type: slack, token: t, channel: C1, base_url: "http://127.0.0.1:9/api" }\n`),
    ).targets.get('chat') as SlackTargetSpec;
    expect(spec.baseUrl).toBe('http://127.0.0.1:9/api/');
  });

  it('register the token from the environment as a secret', () => {
    const compiled = compile(rules(`  chat: { type: slack, token: "\${SLACK_BOT_TOKEN}", channel: C1 }\n`), {
      SLACK_BOT_TOKEN: TOKEN,
    });
    expect(compiled.secrets).toContain(TOKEN);
  });
});

describe('Slack target problems', () => {
  it('a webhook and a token together, or a token without a channel, are located errors', () => {
    expect(
      problems(`  both: { type: slack, webhook_url: "https://hooks.example/x", token: t, channel: C1 }
  lone: { type: slack, token: t }
  hook: { type: slack, webhook_url: "https://hooks.example/x", base_url: "https://slack.example/api/" }
`),
    ).toEqual([
      '2:64 error conflicting_options: targets.both.token: give webhook_url or token (the Web API), not both',
      '3:24 error missing_option: targets.lone.token: needs channel with token: the Web API posts to a channel',
      '4:64 error conflicting_options: targets.hook.base_url: base_url is for token (Web API) targets only',
    ]);
  });

  it('switchyard check prints them as file:line:column, never quoting the token', async () => {
    temp.write('chat.yaml', rules(`  chat:\n    type: slack\n    token: "\${SLACK_BOT_TOKEN}"\n`));
    const io = fakeCliIo(temp.dir, { SLACK_BOT_TOKEN: TOKEN });
    expect(await runCheck(['chat.yaml'], io)).toBe(1);
    expect(io.out()).toMatch(/^chat\.yaml:4:5: error: targets\.chat\.token: needs channel with token/m);
    expect(io.out()).not.toContain(TOKEN);
  });
});
