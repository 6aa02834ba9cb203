import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check-command.js';
import { EXAMPLE_ENV } from '../rules/support/example-env.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { useTempDir } from '../rules/support/temp-dir.js';

const temp = useTempDir();
const EXAMPLE = fileURLToPath(new URL('../../rules.example.yaml', import.meta.url));
const SECRET = 'https://hooks.slack.example/services/T1/B1/check-secret-value';

const VALID = `targets:
  chat: { type: slack, webhook_url: "\${CHAT_URL}" }
  spare: { type: http, url: https://spare.example }
routes:
  - { name: all, to: [chat] }
fallback: [chat]
`;

describe('switchyard check', () => {
  it('passes rules.example.yaml with its variables set', async () => {
    const io = fakeCliIo(temp.dir, EXAMPLE_ENV);
    expect(await runCheck([EXAMPLE], io)).toBe(0);
    expect(io.out()).toMatch(/: OK, 9 routes, 6 targets, 0 warnings \(version [0-9a-f]{12}\)\n$/);
    for (const value of Object.values(EXAMPLE_ENV)) expect(io.out()).not.toContain(value);
  });

  it('prints warnings as file:line:column and exits 0 when there are no errors', async () => {
    temp.write('rules.yaml', VALID);
    const io = fakeCliIo(temp.dir, { CHAT_URL: SECRET });
    expect(await runCheck(['rules.yaml'], io)).toBe(0);
    expect(io.out()).toBe(
      'rules.yaml:3:3: warning: target "spare" is not used by any route or the fallback\n' +
        'rules.yaml: OK, 1 route, 2 targets, 1 warning (version ' +
        /version ([0-9a-f]{12})/.exec(io.out())?.[1] +
        ')\n',
    );
    expect(io.out()).not.toContain(SECRET);
  });

  it('fails on a missing variable, naming it, and --no-env turns that into a warning', async () => {
    temp.write('rules.yaml', VALID);
    const strict = fakeCliIo(temp.dir);
    expect(await runCheck(['rules.yaml'], strict)).toBe(1);
    expect(strict.out()).toContain('rules.yaml:2:37: error: environment variable CHAT_URL is not set (or empty)\n');
    expect(strict.out()).toMatch(/rules\.yaml: 1 error, 1 warning\n$/);
    const lenient = fakeCliIo(temp.dir);
    expect(await runCheck(['rules.yaml', '--no-env'], lenient)).toBe(0);
    expect(lenient.out()).toContain('rules.yaml:2:37: warning: environment variable CHAT_URL is not set (or empty)');
  });

  it('defaults to $SWITCHYARD_RULES, then ./rules.yaml', async () => {
    temp.write('rules.yaml', VALID);
    temp.write('other.yaml', 'targets: {}\nroutes: [{ name: x, to: [nope] }]\nfallback: []\n');
    const fromCwd = fakeCliIo(temp.dir, { CHAT_URL: SECRET });
    expect(await runCheck([], fromCwd)).toBe(0);
    expect(fromCwd.out()).toContain('rules.yaml: OK');
    const fromEnv = fakeCliIo(temp.dir, { SWITCHYARD_RULES: 'other.yaml' });
    expect(await runCheck([], fromEnv)).toBe(1);
    expect(fromEnv.out()).toBe(
      'other.yaml:2:26: error: unknown target "nope" (no targets are defined)\nother.yaml: 1 error, 0 warnings\n',
    );
  });

  it('reports every problem of a broken file, with its location, and never a secret value', async () => {
    temp.write(
      'broken.yaml',
      `targets:
  chat: { type: slack, webhook_url: "\${CHAT_URL}", channel: 5 }
routes:
  - { name: r, match: { event: "agent.**", where: [{ field: data.x, matches: "(" }] }, to: [chat, pager] }
`,
    );
    const io = fakeCliIo(temp.dir, { CHAT_URL: 'ftp://not-http-secret' });
    expect(await runCheck(['broken.yaml'], io)).toBe(1);
    expect(io.out().split('\n')).toEqual([
      'broken.yaml:2:37: error: targets.chat.webhook_url: must be an http:// or https:// URL (from ${CHAT_URL})',
      'broken.yaml:2:61: error: targets.chat.channel: must be a string',
      'broken.yaml:3:1: warning: no fallback: events that match no route are stored but delivered nowhere (write fallback: [] to say that is intended)',
      'broken.yaml:4:32: error: invalid event pattern: "**" is not supported: * matches within one segment, and * alone matches every kind',
      'broken.yaml:4:78: error: invalid regular expression: missing closing ): `(`',
      'broken.yaml:4:99: error: unknown target "pager" (defined: chat)',
      'broken.yaml: 5 errors, 1 warning',
      '',
    ]);
    expect(io.out()).not.toContain('not-http-secret');
  });

  it('checks a Teams target: a bad option and a bad message at file:line:column, never the webhook URL', async () => {
    const rules = (extra: string, type: string, filter: string) => `targets:
  soc-teams:
    type: teams
    webhook_url: "\${TEAMS_WEBHOOK_URL}"
${extra}    message:
      type: ${type}
      body: [{ type: TextBlock, text: "{{ data.title${filter} }}" }]
routes:
  - { name: all, to: [soc-teams] }
fallback: []
`;
    const env = {
      TEAMS_WEBHOOK_URL:
        'https://prod-1.westeurope.logic.azure.com/workflows/1/triggers/manual/paths/invoke?sig=check-sig-secret',
    };
    temp.write('teams.yaml', rules('    channel: "#soc"\n', 'Adaptivecard', ' | shout'));
    const io = fakeCliIo(temp.dir, env);
    expect(await runCheck(['teams.yaml'], io)).toBe(1);
    expect(io.out().split('\n')).toEqual([
      'teams.yaml:5:5: error: targets.soc-teams: unknown property "channel" (allowed: type, webhook_url, message, retry, rate_limit, concurrency, circuit_breaker, timeout, allow_link_local, follow, throttle)',
      'teams.yaml:7:13: error: targets.soc-teams.message.type: needs type: AdaptiveCard (the card) or type: message (the whole payload)',
      'teams.yaml:8:39: error: targets.soc-teams.message.body[0].text: undefined filter: shout (template line 1, column 1)',
      'teams.yaml: 3 errors, 0 warnings',
      '',
    ]);
    expect(io.out()).not.toContain('check-sig-secret');
    temp.write('teams.yaml', rules('', 'AdaptiveCard', ''));
    const fixed = fakeCliIo(temp.dir, env);
    expect(await runCheck(['teams.yaml'], fixed)).toBe(0);
    expect(fixed.out()).toMatch(/^teams\.yaml: OK, 1 route, 1 target, 0 warnings/);
  });

  it('reports template syntax errors at the string holding the template, and policy contradictions', async () => {
    temp.write(
      'templates.yaml',
      `targets:
  chat:
    type: slack
    webhook_url: "\${CHAT_URL}"
    message: { text: "{{ data.title | shout }}" }
  tickets:
    type: http
    url: https://tickets.example/api
    body:
      summary: "[{{ data.severity | upcase }}] {{ data.title }"
      labels: [soc, "{% if %}"]
    retry: { initial_delay: 1m, max_delay: 30s }
routes:
  - { name: all, to: [chat, tickets] }
fallback: []
`,
    );
    const io = fakeCliIo(temp.dir, { CHAT_URL: SECRET });
    expect(await runCheck(['templates.yaml'], io)).toBe(1);
    expect(io.out().split('\n')).toEqual([
      'templates.yaml:5:22: error: targets.chat.message.text: undefined filter: shout (template line 1, column 1)',
      'templates.yaml:10:16: error: targets.tickets.body.summary: output "{{ data.title }" not closed (template line 1, column 32)',
      'templates.yaml:11:21: error: targets.tickets.body.labels[1]: invalid value expression: "" (template line 1, column 6)',
      'templates.yaml:12:44: error: targets.tickets.retry.max_delay: must be at least retry.initial_delay (1m)',
      'templates.yaml: 4 errors, 0 warnings',
      '',
    ]);
    expect(io.out()).not.toContain(SECRET);
  });

  it('reports an unreadable file without a position, and usage errors with exit 2', async () => {
    const io = fakeCliIo(temp.dir);
    expect(await runCheck(['nowhere.yaml'], io)).toBe(1);
    expect(io.out()).toBe(
      'nowhere.yaml: error: cannot read the rules file (ENOENT)\nnowhere.yaml: 1 error, 0 warnings\n',
    );
    const usage = fakeCliIo(temp.dir);
    expect(await runCheck(['a.yaml', 'b.yaml'], usage)).toBe(2);
    expect(usage.err()).toContain('usage: switchyard check');
    const flag = fakeCliIo(temp.dir);
    expect(await runCheck(['--bogus'], flag)).toBe(2);
    expect(flag.err()).toContain("Unknown option '--bogus'");
  });
});
