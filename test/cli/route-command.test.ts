import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runRoute } from '../../src/cli/route-command.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { useTempDir } from '../rules/support/temp-dir.js';

const temp = useTempDir();
const EXAMPLE = fileURLToPath(new URL('../../rules.example.yaml', import.meta.url));
const SECRET = 'https://hooks.slack.example/services/T1/B1/route-secret-value';
const RULES = `targets:
  chat: { type: slack, webhook_url: "\${CHAT_URL}" }
  mail: { type: email, smtp: { host: smtp.example }, from: soc@example.com, to: [soc@example.com] }
routes:
  - { name: drop-test, match: { where: [{ field: data.agent.tags, equals: test }] }, to: [], stop: true }
  - { name: critical, match: { event: incident.*, severity: { at_least: high } }, to: [chat, mail] }
  - { name: agents, match: { event: agent.* }, to: [chat] }
fallback: [mail]
`;
const envelope = (data: Record<string, unknown>, kind = 'incident.created') =>
  JSON.stringify({ event: kind, timestamp: '2026-11-22T10:00:00Z', data });

describe('switchyard route', () => {
  temp.write('rules.yaml', RULES);

  it('explains each route and lists the targets, reading the event from a file', async () => {
    temp.write('event.json', envelope({ severity: 'Critical', title: 'x' }));
    const io = fakeCliIo(temp.dir, { CHAT_URL: SECRET });
    expect(await runRoute(['rules.yaml', '--event', 'event.json'], io)).toBe(0);
    expect(io.out()).toBe(
      [
        'event:    incident.created',
        'severity: "Critical" (level critical)',
        'routes:',
        '  no     drop-test  data.agent.tags: absent, so equals "test" does not hold',
        '  MATCH  critical   -> chat, mail',
        '  no     agents     event: "incident.created" does not match agent.*',
        'targets:  chat, mail',
        '',
      ].join('\n'),
    );
    expect(io.out() + io.err()).not.toContain(SECRET);
  });

  it('reads the event from standard input and shows drops, stops and the fallback', async () => {
    const dropped = fakeCliIo(temp.dir, {}, envelope({ agent: { tags: ['test'] } }, 'agent.offline'));
    expect(await runRoute(['rules.yaml'], dropped)).toBe(0);
    expect(dropped.out()).toContain('  MATCH  drop-test  -> (no targets)  [stop]\n');
    expect(dropped.out()).toContain('  skip   critical   not evaluated: stopped by drop-test\n');
    expect(dropped.out()).toContain('targets:  none (dropped by drop-test)\n');
    expect(dropped.err()).toBe(
      'note: 1 environment variable(s) not set; placeholders used (routing does not need them)\n',
    );

    const unrouted = fakeCliIo(temp.dir, {}, envelope({ severity: 'sev9' }, 'vendor.new'));
    expect(await runRoute(['rules.yaml', '--event', '-'], unrouted)).toBe(0);
    expect(unrouted.out()).toContain('event:    vendor.new (not a kind the upstream documents)\n');
    expect(unrouted.out()).toContain('severity: "sev9" is not a configured level: read as critical, the highest\n');
    expect(unrouted.out()).toContain('targets:  mail (fallback: no route matched)\n');
  });

  it('prints JSON with --json', async () => {
    const io = fakeCliIo(temp.dir, { CHAT_URL: SECRET }, envelope({ severity: 'low' }, 'agent.online'));
    expect(await runRoute(['rules.yaml', '--json'], io)).toBe(0);
    const report = JSON.parse(io.out()) as Record<string, unknown>;
    expect(report).toMatchObject({
      rules: { file: 'rules.yaml', version: expect.stringMatching(/^[0-9a-f]{12}$/) },
      event: 'agent.online',
      severity: { raw: 'low', level: 'low', unknown: false },
      matchedRoutes: ['agents'],
      targets: ['chat'],
      usedFallback: false,
      stoppedBy: null,
    });
    expect(report.routes).toHaveLength(3);
    expect(io.out()).not.toContain(SECRET);
  });

  it('works on rules.example.yaml without any secrets set', async () => {
    const io = fakeCliIo(temp.dir, {}, envelope({ severity: 'high', title: 'Ransomware' }));
    expect(await runRoute([EXAMPLE], io)).toBe(0);
    expect(io.out()).toContain('targets:  soc-slack, oncall-mail, tickets\n');
  });

  it.each([
    ['not json', 'the event in standard input is not valid JSON: '],
    ['[1]', 'the event in standard input is not a valid envelope: body must be a JSON object'],
    [JSON.stringify({ event: 'a.b', timestamp: 'today', data: {} }), 'is not a valid envelope: "timestamp" must be'],
  ])('rejects an invalid event %s with exit 1', async (stdin, message) => {
    const io = fakeCliIo(temp.dir, {}, stdin);
    expect(await runRoute(['rules.yaml'], io)).toBe(1);
    expect(io.err()).toContain(message);
    expect(io.out()).toBe('');
  });

  it('rejects a missing event file and invalid rules with exit 1', async () => {
    const missing = fakeCliIo(temp.dir);
    expect(await runRoute(['rules.yaml', '--event', 'none.json'], missing)).toBe(1);
    expect(missing.err()).toBe('switchyard route: cannot read the event from none.json (ENOENT)\n');
    temp.write('bad.yaml', 'targets: {}\nroutes: [{ name: r, to: [x] }]\n');
    const bad = fakeCliIo(temp.dir, {}, envelope({}));
    expect(await runRoute(['bad.yaml'], bad)).toBe(1);
    expect(bad.err()).toContain('bad.yaml:2:26: error: unknown target "x"');
    expect(bad.err()).toContain('switchyard route: bad.yaml is invalid (see above)\n');
    expect(bad.out()).toBe('');
  });

  it('refuses an event nested thousands of levels deep with a clear message and exit 1', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    temp.write('deep.json', envelope({ severity: 'high' }).replace('"high"', deep));
    const io = fakeCliIo(temp.dir, { CHAT_URL: SECRET });
    expect(await runRoute(['rules.yaml', '--event', 'deep.json'], io)).toBe(1);
    expect(io.out()).toBe('');
    expect(io.err()).toBe(
      'switchyard route: the event in deep.json is not a valid envelope: the event nests deeper than 64 levels\n',
    );
  });
});

describe('switchyard route --at', () => {
  temp.write(
    'night.yaml',
    `time_intervals:
  - name: nights
    time_intervals: [{ times: [{ start_time: '22:00', end_time: '24:00' }], location: Europe/Berlin }]
targets:
  pager: { type: http, url: "https://pager.example/x" }
routes:
  - { name: night-pager, match: { event: incident.* }, active_during: [nights], to: [pager] }
  - { name: muted-pager, match: { event: agent.* }, muted_during: [nights], to: [pager] }
`,
  );
  temp.write('incident.json', envelope({ title: 'x' }));

  it('routes as if received at that instant, saying what is inactive or muted', async () => {
    const io = fakeCliIo(temp.dir, {});
    expect(await runRoute(['night.yaml', '--event', 'incident.json', '--at', '2026-12-24T22:30:00+01:00'], io)).toBe(0);
    expect(io.out()).toContain('MATCH  night-pager  -> pager');
    const day = fakeCliIo(temp.dir, {});
    expect(await runRoute(['night.yaml', '--event', 'incident.json', '--at', '2026-12-24T12:00:00+01:00'], day)).toBe(
      0,
    );
    expect(day.out()).toContain('no     night-pager  not active: outside nights');
    temp.write('agent.json', envelope({ host: 'db-1' }, 'agent.offline'));
    const muted = fakeCliIo(temp.dir, {});
    expect(
      await runRoute(['night.yaml', '--event', 'agent.json', '--at', '2026-12-24T23:00:00+01:00', '--json'], muted),
    ).toBe(0);
    expect(JSON.parse(muted.out())).toMatchObject({ at: '2026-12-24T22:00:00.000Z', muted: { pager: 'nights' } });
  });

  it('refuses an --at that is not a date-time', async () => {
    const io = fakeCliIo(temp.dir, {});
    expect(await runRoute(['night.yaml', '--event', 'incident.json', '--at', 'christmas'], io)).toBe(1);
    expect(io.err()).toContain('--at: "christmas" is not a date-time');
  });
});
