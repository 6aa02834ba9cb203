import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runTest } from '../../src/cli/test-command.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { useTempDir } from '../rules/support/temp-dir.js';

const temp = useTempDir();
const EXAMPLE = fileURLToPath(new URL('../../rules.example.yaml', import.meta.url));
const EXAMPLE_TESTS = fileURLToPath(new URL('../../examples/rules.tests.yaml', import.meta.url));
const RULES = `targets:
  chat: { type: slack, webhook_url: "\${CHAT_URL}" }
  mail: { type: email, smtp: { host: smtp.example }, from: soc@example.com, to: [soc@example.com] }
routes:
  - { name: critical, match: { event: incident.*, severity: { at_least: high } }, to: [chat, mail] }
fallback: [mail]
`;
const testCase = (name: string, kind: string, severity: string, expect: string) =>
  `  - name: ${name}\n    event: { event: ${kind}, timestamp: "2026-11-22T10:00:00Z", data: { severity: ${severity} } }\n    expect: ${expect}\n`;

describe('switchyard test', () => {
  temp.write('rules.yaml', RULES);

  it('passes examples/rules.tests.yaml against rules.example.yaml without secrets', async () => {
    const io = fakeCliIo(temp.dir);
    expect(await runTest([EXAMPLE, EXAMPLE_TESTS], io)).toBe(0);
    expect(io.out()).toMatch(/^PASS {2}/);
    expect(io.out()).not.toContain('FAIL');
    expect(io.out()).toMatch(/\n(\d+) cases: \1 passed, 0 failed\n$/);
  });

  it('prints PASS/FAIL per case with the difference, and exits 1 on a failure', async () => {
    temp.write(
      'tests.yaml',
      `cases:\n${testCase('critical', 'incident.created', 'critical', '[mail, chat]')}${testCase('wrong', 'agent.online', 'high', '[chat]')}${testCase('fallback', 'agent.online', 'low', '[mail]')}`,
    );
    const io = fakeCliIo(temp.dir);
    expect(await runTest(['rules.yaml', 'tests.yaml'], io)).toBe(1);
    expect(io.out()).toBe(
      [
        'PASS  critical',
        'FAIL  wrong (line 5)',
        '        missing:    [chat]',
        '        unexpected: [mail]',
        '        matched routes: none (fallback used)',
        'PASS  fallback',
        '3 cases: 2 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('takes the rules from $SWITCHYARD_RULES when given only the tests file', async () => {
    temp.write('only.yaml', `cases:\n${testCase('fallback', 'agent.online', 'low', '[mail]')}`);
    const io = fakeCliIo(temp.dir, { SWITCHYARD_RULES: 'rules.yaml', CHAT_URL: 'https://chat.example/secret-hook' });
    expect(await runTest(['only.yaml'], io)).toBe(0);
    expect(io.out()).toBe('PASS  fallback\n1 case: 1 passed, 0 failed\n');
    expect(io.err()).toBe('');
  });

  it('exits 1 with located problems for an invalid tests file or rules file', async () => {
    temp.write(
      'bad-tests.yaml',
      'cases:\n  - name: x\n    event: { event: a.b, timestamp: nope, data: {} }\n    expect: []\n',
    );
    const io = fakeCliIo(temp.dir);
    expect(await runTest(['rules.yaml', 'bad-tests.yaml'], io)).toBe(1);
    expect(io.err()).toContain('bad-tests.yaml:3:12: error: invalid event: "timestamp" must be an ISO 8601 date-time');
    expect(io.err()).toContain('switchyard test: bad-tests.yaml is invalid (see above)\n');
    expect(io.out()).toBe('');

    temp.write('bad-rules.yaml', 'targets: {}\nroutes: [{ name: r, to: [x] }]\n');
    const both = fakeCliIo(temp.dir);
    expect(await runTest(['bad-rules.yaml', 'bad-tests.yaml'], both)).toBe(1);
    expect(both.err()).toContain('bad-rules.yaml:2:26: error: unknown target "x"');
    expect(both.err()).toContain('switchyard test: bad-rules.yaml and bad-tests.yaml are invalid (see above)\n');
  });

  it('lists every problem of a tests file in one run, each located, and exits 1 (real process)', async () => {
    const tests = temp.write(
      'many-problems.yaml',
      [
        'cases:',
        '  - name: typo in expect',
        '    event: { event: incident.created, timestamp: "2026-11-22T10:00:00Z", data: { severity: high } }',
        '    expect: [chat, mial]',
        '  - name: no expect',
        '    event: { event: agent.online, timestamp: "2026-11-22T10:00:00Z", data: {} }',
        '  - name: bad timestamp',
        '    event: { event: agent.online, timestamp: yesterday, data: {} }',
        '    expect: [mail]',
        '  - name: typo in expect',
        '    event: { event: agent.online, timestamp: "2026-11-22T10:00:00Z", data: {} }',
        '    expect: [mail]',
        '    expected: [mail]',
        '',
      ].join('\n'),
    );
    // Run from the project (where tsx resolves), with the files given by absolute path.
    const cli = spawnCli(['test', `${temp.dir}/rules.yaml`, tests], {});
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(
      [
        `${tests}:4:20: error: unknown target "mial": did you mean "mail"? (defined: chat, mail)`,
        `${tests}:5:5: error: cases[1]: missing required property "expect"`,
        `${tests}:8:12: error: invalid event: "timestamp" must be an ISO 8601 date-time with a zone, e.g. 2026-11-22T10:00:00Z`,
        `${tests}:10:11: error: duplicate case name "typo in expect"`,
        `${tests}:13:5: error: cases[3]: unknown property "expected": did you mean "expect"? (allowed: name, event, expect, at, expect_muted, references, expect_requests)`,
        `switchyard test: ${tests} is invalid (see above)`,
        '',
      ].join('\n'),
    );
    expect(cli.stdout()).toBe('');
  });

  it('says a case at: needs a zone in plain words, as route --at does, not with the pattern', async () => {
    temp.write(
      'no-zone.yaml',
      'cases:\n  - name: night\n    at: 2026-12-24T22:00:00\n    event: { event: a.b, timestamp: "2026-11-22T10:00:00Z", data: {} }\n    expect: []\n',
    );
    const io = fakeCliIo(temp.dir);
    expect(await runTest(['rules.yaml', 'no-zone.yaml'], io)).toBe(1);
    expect(io.err()).toContain(
      'no-zone.yaml:3:9: error: cases[0].at: must be a date-time with a zone (Z or an offset), e.g. 2026-12-24T22:00:00+01:00\n',
    );
    expect(io.err()).not.toContain('\\d');
    expect(io.out()).toBe('');
  });

  it('says a target expected but muted at the time of the case is muted by its interval, and points at expect_muted (real process)', async () => {
    const rules = temp.write(
      'muted-rules.yaml',
      `time_intervals:
  - name: maintenance-window
    time_intervals: [{ weekdays: [saturday], times: [{ start_time: '22:00', end_time: '24:00' }], location: Europe/Berlin }]
targets:
  pager: { type: http, url: "https://pager.example/x" }
  tickets: { type: http, url: "https://tickets.example/x" }
routes:
  - { name: agents, match: { event: agent.* }, muted_during: [maintenance-window], to: [pager] }
  - { name: all, to: [tickets] }
`,
    );
    const event = '{ event: agent.offline, timestamp: "2026-11-28T21:30:00Z", data: {} }';
    const tests = temp.write(
      'muted-tests.yaml',
      `cases:
  - { name: saturday night, at: "2026-11-28T22:30:00+01:00", event: ${event}, expect: [pager, tickets] }
  - { name: told muted, at: "2026-11-28T22:30:00+01:00", event: ${event}, expect: [tickets], expect_muted: [] }
`,
    );
    const cli = spawnCli(['test', rules, tests], {});
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toBe(
      [
        'FAIL  saturday night (line 2)',
        '        not sent:   pager is muted by interval maintenance-window: list it in expect_muted, not expect',
        '        matched routes: agents, all',
        'FAIL  told muted (line 3)',
        '        muted:      pager by interval maintenance-window, not in expect_muted',
        '        matched routes: agents, all',
        '2 cases: 0 passed, 2 failed',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('needs one or two arguments', async () => {
    const io = fakeCliIo(temp.dir);
    expect(await runTest([], io)).toBe(2);
    expect(io.err()).toContain('usage: switchyard test [RULES] TESTS.yaml');
    const help = fakeCliIo(temp.dir);
    expect(await runTest(['--help'], help)).toBe(0);
    expect(help.out()).toContain('usage: switchyard test');
  });
});
