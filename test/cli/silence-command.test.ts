import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { runSilence } from '../../src/cli/silence-command.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { seedCliJournal } from './support/seed-cli-journal.js';

const tempDir = useTempDirs();

/**
 * A journal with its config and rules, as a daemon leaves them, and `silence` run on it: in-process, or as a
 * separate process (`spawned`) where the process's own environment is what is tested.
 */
async function journal() {
  const seeded = await seedCliJournal(tempDir());
  writeFileSync(
    path.join(seeded.dir, 'config', 'rules.yaml'),
    'targets:\n  tickets: { type: http, url: "https://tickets.example/x" }\nroutes:\n  - { name: all, to: [tickets] }\n',
  );
  const silence = async (args: string[], env: Record<string, string> = {}) => {
    const io = fakeCliIo(seeded.dir, env);
    const code = await runSilence([...args, '--config', seeded.config], io);
    return { code, out: io.out(), err: io.err() };
  };
  const spawned = async (args: string[], env: Record<string, string> = {}) => {
    const run = spawnCli(['silence', ...args, '--config', seeded.config], env);
    return { code: await run.exited, out: run.stdout(), err: run.stderr() };
  };
  return { silence, spawned };
}

const ADD = ['add', '--match', '{event: agent.*}', '--duration', '1h', '--comment', 'patching db-1'];

describe('switchyard silence', () => {
  it('without $USER or $LOGNAME (cron, systemd, containers) names --created-by, and stores nothing', async () => {
    const { silence, spawned } = await journal();
    const refused = await spawned(ADD);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('invalid_silence: give --created-by NAME');
    expect(refused.err).not.toContain('missing required property');
    expect((await silence(['list', '--status', 'all', '--json'])).out).toBe('[]\n');

    const added = await silence([...ADD, '--created-by', 'oncall-bot', '--json']);
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({ createdBy: 'oncall-bot' });
    const fromLogname = await silence([...ADD, '--json'], { LOGNAME: 'bob' });
    expect(JSON.parse(fromLogname.out)).toMatchObject({ createdBy: 'bob' });
  }, 60_000);

  it('says "active until" when added and "expired at" when expired', async () => {
    const { silence } = await journal();
    const added = await silence(ADD, { USER: 'alice' });
    expect(added.out).toMatch(/^sil_\w+ active until \d{4}-\d\d-\d\dT[\d:.]+Z: patching db-1\n$/);
    const id = added.out.split(' ')[0] ?? '';
    const before = Date.now();
    const expired = await silence(['expire', id]);
    expect(expired.code, expired.err).toBe(0);
    expect(expired.out).not.toContain('until');
    const at = /^sil_\w+ expired at (\S+): patching db-1\n$/.exec(expired.out)?.[1] ?? '';
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1_000);

    const later = await silence([...ADD, '--starts-at', '2099-01-01T00:00:00Z'], { USER: 'alice' });
    expect(later.out).toMatch(/ pending from 2099-01-01T00:00:00\.000Z until 2099-01-01T01:00:00\.000Z: /);
    const cancelled = await silence(['expire', later.out.split(' ')[0] ?? '']);
    expect(cancelled.out).toMatch(/^sil_\w+ expired before it started: patching db-1\n$/);
  }, 60_000);

  it('adds a silence from several amtool-style matchers, stored as a match: that holds them all', async () => {
    const { spawned } = await journal();
    const added = await spawned(
      [
        'add',
        'event=agent.offline',
        'data.host=~db-.*',
        'severity!=low',
        '--duration',
        '2h',
        '--comment',
        'db patch',
        '--json',
      ],
      { USER: 'alice' },
    );
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({
      matchers: {
        event: 'agent.offline',
        where: [
          { field: 'data.host', matches: '^(?:db-.*)$' },
          { field: 'data.severity', not: { matches: '(?i)^low$' } },
        ],
      },
      createdBy: 'alice',
    });
    const listed = await spawned(['list']);
    expect(listed.out).toContain('^(?:db-.*)$');
  }, 60_000);

  it('lists a silence that starts in the future as pending, and not as active', async () => {
    const { spawned } = await journal();
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const added = await spawned(
      ['add', 'event=agent.offline', '--starts-at', start, '--duration', '4h', '--comment', 'planned maintenance'],
      { USER: 'alice' },
    );
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(new RegExp(`^sil_\\w+ pending from ${start.replace(/[.]/g, '\\.')} until `));
    const pending = await spawned(['list', '--status', 'pending']);
    expect(pending.out).toMatch(/sil_\w+ +pending +/);
    expect((await spawned(['list'])).out).not.toContain('sil_');
  }, 60_000);

  it('--dry-run shows what the last day held by kind and target, and stores nothing', async () => {
    const { silence, spawned } = await journal();
    const dry = await spawned(
      [
        'add',
        'event=incident.created',
        'data.title=~Agent offline: .*',
        '--duration',
        '1h',
        '--comment',
        'x',
        '--dry-run',
      ],
      { USER: 'alice' },
    );
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('dry run, nothing stored');
    expect(dry.out).toMatch(/\n1 of the 2 events received from \S+ to \S+ would have been held\n/);
    expect(dry.out).toMatch(/\nincident\.created +soc-slack +1 +evt_\w+\nincident\.created +tickets +1 +evt_\w+\n$/);
    // The seeded event whose kind carries escape sequences is shown flattened.
    const hostile = await spawned(
      ['add', 'data.title=~.*red alert.*', '--duration', '1h', '--comment', 'x', '--dry-run'],
      {
        USER: 'alice',
      },
    );
    expect(hostile.out).toContain('1 of the 2 events');
    expect(hostile.out).not.toContain('\u001b');
    expect(hostile.out).not.toContain('\u0007');
    expect((await silence(['list', '--status', 'all', '--json'])).out).toBe('[]\n');
  }, 60_000);

  it('refuses a bad matcher, naming it, and stores nothing', async () => {
    const { silence, spawned } = await journal();
    for (const [matchers, message] of [
      [['event=agent.offline', 'host=db-1'], 'matcher "host=db-1": expected NAME=VALUE'],
      [['data.host=~(db'], 'matcher "data.host=~(db": invalid regular expression'],
      [['severity=urgent'], 'matcher "severity=urgent": "urgent" is not one of the severities'],
      [[], 'give matchers (event=agent.offline data.host=~db-.*) or --match'],
    ] as const) {
      for (const dryRun of [[], ['--dry-run']]) {
        // One run as a separate process; the others in-process, which is the same code, faster.
        const run = matchers.length === 2 && dryRun.length === 0 ? spawned : silence;
        const refused = await run(['add', ...matchers, '--duration', '1h', '--comment', 'x', ...dryRun], {
          USER: 'alice',
        });
        expect(refused.code).toBe(2);
        expect(refused.err).toContain(`invalid_silence: ${message}`);
      }
    }
    const both = await silence(
      ['add', 'event=agent.offline', '--match', '{event: agent.*}', '--duration', '1h', '--comment', 'x'],
      {
        USER: 'alice',
      },
    );
    expect([both.code, both.err]).toEqual([
      2,
      'switchyard silence: invalid_silence: give exactly one of match and matchers\n',
    ]);
    const misplaced = await silence(['list', '--dry-run']);
    expect([misplaced.code, misplaced.err]).toEqual([2, expect.stringContaining('--dry-run goes with add only')]);
    expect((await silence(['list', '--status', 'all', '--json'])).out).toBe('[]\n');
  }, 60_000);
});
