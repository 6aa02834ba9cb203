import { describe, expect, it } from 'vitest';
import { runTest } from '../../src/cli/test-command.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { useTempDir } from '../rules/support/temp-dir.js';

const temp = useTempDir();
const RULES = `targets:
  jira:
    type: http
    requests:
      create: { url: https://jira.example/rest/api/2/issue, capture: { ticket: body.key } }
      update: { url: 'https://jira.example/rest/api/2/issue/{{ ref.ticket }}/comment' }
      resolve: { url: 'https://jira.example/rest/api/2/issue/{{ ref.ticket }}/transitions' }
  chat: { type: slack, webhook_url: https://hooks.slack.example/y }
routes:
  - { name: incidents, match: { event: incident.* }, to: [jira] }
  - { name: agents, match: { event: agent.* }, to: [chat] }
fallback: []
`;
const event = (kind: string) => `{ event: ${kind}, timestamp: "2026-11-22T10:00:00Z", data: { incident_id: inc_1 } }`;

describe('switchyard test: expect_requests', () => {
  temp.write('rules.yaml', RULES);

  it('checks the request per target, with references standing in for the journal, and shows a mismatch', async () => {
    temp.write(
      'tests.yaml',
      `cases:
  - name: first event opens the ticket
    event: ${event('incident.updated')}
    expect: [jira]
    expect_requests: { jira: create }
  - name: later event comments on it
    event: ${event('incident.updated')}
    references: { jira: { ticket: SOC-1 } }
    expect: [jira]
    expect_requests: { jira: update }
  - name: resolve closes it
    event: ${event('incident.resolved')}
    references: { jira: { ticket: SOC-1 } }
    expect: [jira]
    expect_requests: { jira: resolve }
  - name: forgot the history
    event: ${event('incident.updated')}
    expect: [jira]
    expect_requests: { jira: update }
  - name: not routed there
    event: ${event('agent.offline')}
    expect: [chat]
    expect_requests: { jira: create, chat: create }
`,
    );
    const io = fakeCliIo(temp.dir);
    expect(await runTest(['rules.yaml', 'tests.yaml'], io)).toBe(1);
    expect(io.err()).toBe('');
    expect(io.out()).toBe(
      [
        'PASS  first event opens the ticket',
        'PASS  later event comments on it',
        'PASS  resolve closes it',
        'FAIL  forgot the history (line 16)',
        '        request:    jira: expected update, would use create (nothing delivered yet for key incident:inc_1)',
        '        matched routes: incidents',
        'FAIL  not routed there (line 20)',
        '        request:    jira: expected create, but the event does not reach it',
        '        matched routes: agents',
        '5 cases: 3 passed, 2 failed',
        '',
      ].join('\n'),
    );
  });

  it('refuses unknown targets, unknown requests and extra options, each located', async () => {
    temp.write(
      'bad.yaml',
      `cases:
  - name: typos
    event: ${event('incident.updated')}
    expect: [jira]
    references: { jria: { ticket: SOC-1 }, jira: { ticket: 7 } }
    expect_requests: { jira: comment, chta: create }
    expect_request: { jira: create }
`,
    );
    const io = fakeCliIo(temp.dir);
    expect(await runTest(['rules.yaml', 'bad.yaml'], io)).toBe(1);
    expect(io.err()).toBe(
      [
        'bad.yaml:5:25: error: unknown target "jria": did you mean "jira"? (defined: jira, chat)',
        'bad.yaml:5:60: error: cases[0].references.jira.ticket: must be a string',
        'bad.yaml:6:30: error: cases[0].expect_requests.jira: must be one of: create, update, resolve',
        'bad.yaml:6:45: error: unknown target "chta": did you mean "chat"? (defined: jira, chat)',
        'bad.yaml:7:5: error: cases[0]: unknown property "expect_request": did you mean "expect_requests"? ' +
          '(allowed: name, event, expect, at, expect_muted, references, expect_requests)',
        'switchyard test: bad.yaml is invalid (see above)',
        '',
      ].join('\n'),
    );
    expect(io.out()).toBe('');
  });
});
