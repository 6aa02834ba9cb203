import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeliveries } from '../../src/cli/deliveries-command.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { seedCliJournal, TITLES, type CliJournal } from './support/seed-cli-journal.js';

const tempDir = useTempDirs();

/** Runs `switchyard deliveries ARGS --json` in-process and answers the ids listed. */
async function listed(journal: CliJournal, args: string[], env: Record<string, string> = {}, cwd = journal.dir) {
  const io = fakeCliIo(cwd, env);
  const code = await runDeliveries([...args, '--json'], io);
  expect({ code, err: io.err() }).toEqual({ code: 0, err: '' });
  return (JSON.parse(io.out()) as StoredDelivery[]).map((d) => d.id);
}

describe('switchyard deliveries: finding the journal', () => {
  it('follows --config (absolute, relative to the working directory, or -c) and $SWITCHYARD_CONFIG', async () => {
    const journal = await seedCliJournal(tempDir());
    const elsewhere = tempDir();
    const all = await listed(journal, ['--config', journal.config], {}, elsewhere);
    expect(all).toHaveLength(8);
    expect(await listed(journal, ['--config', 'config/switchyard.yaml'])).toEqual(all);
    expect(await listed(journal, ['-c', journal.config], {}, elsewhere)).toEqual(all);
    expect(await listed(journal, [], { SWITCHYARD_CONFIG: journal.config }, elsewhere)).toEqual(all);
    // Without either, config/switchyard.yaml under the working directory, as the daemon does.
    expect(await listed(journal, [])).toEqual(all);
  });

  it('prefers --config to $SWITCHYARD_CONFIG', async () => {
    const journal = await seedCliJournal(tempDir());
    const env = { SWITCHYARD_CONFIG: path.join(journal.dir, 'missing.yaml') };
    expect(await listed(journal, ['--config', journal.config], env)).toHaveLength(8);

    const io = fakeCliIo(journal.dir, env);
    expect(await runDeliveries([], io)).toBe(1);
    expect(io.err()).toMatch(/invalid_config: cannot read config file .*missing\.yaml/);
  });

  it('says when the config names no journal yet, and does not create one', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'switchyard.yaml');
    writeFileSync(
      config,
      'store: { sqlite: { path: ./nowhere.db } }\nsources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
    );
    const io = fakeCliIo(dir);
    expect(await runDeliveries(['--config', config], io)).toBe(1);
    expect(io.err()).toContain(`journal_missing: no journal at ${path.join(dir, 'nowhere.db')}`);
    expect(existsSync(path.join(dir, 'nowhere.db'))).toBe(false);
  });
});

describe('switchyard deliveries: filters', () => {
  it('selects by --state, --target, --event and --limit', async () => {
    const j = await seedCliJournal(tempDir());
    const c = ['--config', j.config];
    // Newest first; deliveries of one event (same creation time) by id, descending.
    expect(await listed(j, [...c, '--state', 'dead'])).toEqual(
      [
        j.id(0, 'tickets'),
        j.id(1, 'tickets'),
        j.id(1, 'soc-slack'),
        j.id(2, 'tickets'),
        j.id(3, 'soc-slack'),
      ].reverse(),
    );
    expect(await listed(j, [...c, '--state', 'delivered'])).toEqual([j.id(0, 'soc-slack')]);
    expect(await listed(j, [...c, '--state', 'pending', '--target', 'tickets'])).toEqual([j.id(3, 'tickets')]);
    const [first] = await j.deliveries();
    expect(await listed(j, [...c, '--event', first?.eventId ?? ''])).toEqual([
      j.id(0, 'soc-slack'),
      j.id(0, 'tickets'),
    ]);
    expect(await listed(j, [...c, '--target', 'soc-slack', '--limit', '2'])).toEqual([
      j.id(3, 'soc-slack'),
      j.id(2, 'soc-slack'),
    ]);
  });

  it.each([
    // Two seeded events are on fixed dates (2025-01-10 and -11, 10:00 UTC), two 2 h and 30 min ago.
    ['2025-01-11', [1, 2, 3]],
    ['2025-01-11T10:00:00Z', [1, 2, 3]],
    ['2025-01-11T10:00:00.001Z', [2, 3]],
    ['2025-01-11T11:00:00+01:00', [1, 2, 3]],
    ['2025-01-11T10:00:00-01:00', [2, 3]],
    ['7d', [2, 3]],
    ['3h', [2, 3]],
    ['90m', [3]],
    ['1h30m', [3]],
    ['10m', []],
  ])('--since %s', async (since, events) => {
    const j = await seedCliJournal(tempDir());
    expect(await listed(j, ['--config', j.config, '--target', 'tickets', '--since', since])).toEqual(
      events.map((n) => j.id(n, 'tickets')).reverse(),
    );
  });

  it('--until is exclusive and combines with --since', async () => {
    const j = await seedCliJournal(tempDir());
    const c = ['--config', j.config, '--target', 'tickets'];
    expect(await listed(j, [...c, '--until', '2025-01-11T10:00:00Z'])).toEqual([j.id(0, 'tickets')]);
    expect(await listed(j, [...c, '--since', '2025-01-11', '--until', '1h'])).toEqual([
      j.id(2, 'tickets'),
      j.id(1, 'tickets'),
    ]);
  });

  it('shows one delivery with its attempts', async () => {
    const j = await seedCliJournal(tempDir());
    const io = fakeCliIo(j.dir);
    expect(await runDeliveries([j.id(1, 'tickets'), '--config', j.config], io)).toBe(0);
    expect(io.out()).toMatch(
      new RegExp(
        `${j.id(1, 'tickets')}\\s+evt_\\S+\\s+incident.created\\s+high\\s+Malware found on laptop-7\\s+tickets\\s+dead\\s+1\\s`,
      ),
    );
    expect(io.out()).toMatch(/1\s+\S+Z\s+12 ms\s+dead\s+400\s+HTTP 400 bad request/);
  });
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('switchyard deliveries: what it shows (real process)', () => {
  it('lists newest first with the kind, severity and title of each event, never a raw control character', async () => {
    const j = await seedCliJournal(tempDir());
    const cli = spawnCli(['deliveries', '--config', j.config, '--target', 'tickets'], {});
    expect(await cli.exited).toBe(0);
    const [header, ...rows] = cli.stdout().trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+EVENT\s+KIND\s+SEVERITY\s+TITLE\s+TARGET\s+STATE\s+ATTEMPTS\s+NEXT \/ LAST CHANGE/);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual([3, 2, 1, 0].map((n) => j.id(n, 'tickets')));
    expect(rows[1]).toMatch(/\sincident\.created\s+high\s+Agent offline: web-3\s+tickets\s+dead\s/);
    expect(rows[0]).toContain(' [31mred alert [0m ');
    expect(cli.stdout()).not.toContain('\u001b');
  }, 60_000);

  it('shows what a hostile sender and receiver wrote (kind, severity, last error) without controls, shortened', async () => {
    const j = await seedCliJournal(tempDir());
    const hostile = (await j.deliveries()).find((d) => d.id === j.id(3, 'soc-slack'));
    const cli = spawnCli(['deliveries', '--config', j.config, '--event', hostile?.eventId ?? ''], {});
    expect(await cli.exited).toBe(0);
    const out = cli.stdout();
    // eslint-disable-next-line no-control-regex -- the point: no C0, DEL or C1 control other than the newlines
    expect(out.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const row = out.split('\n').find((line) => line.startsWith(j.id(3, 'soc-slack'))) ?? '';
    expect(row).toMatch(/\s\]0;owned incident\.created\s+\[2Jxxxxxx\.\.\.\s+\[31mred alert \[0m\s+soc-slack\s+dead\s/);
    expect(row).toMatch(/\s31mHTTP 400 \[0m$/);
    expect(row.length).toBeLessThan(400);
  }, 60_000);

  it('prints --json in the admin API shape: ISO 8601 times, the event kind, severity and title', async () => {
    const j = await seedCliJournal(tempDir());
    const cli = spawnCli(['deliveries', '--config', j.config, '--state', 'delivered', '--json'], {});
    expect(await cli.exited).toBe(0);
    expect(JSON.parse(cli.stdout())).toEqual([
      {
        id: j.id(0, 'soc-slack'),
        eventId: expect.stringMatching(/^evt_/),
        kind: 'incident.created',
        severity: 'high',
        title: TITLES[0],
        target: 'soc-slack',
        state: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        lastError: null,
        heldBy: null,
        heldReason: null,
        correlationKey: null,
        waitingFor: null,
        waitingReason: null,
        captureMiss: null,
        createdAt: '2025-01-10T10:00:00.000Z',
        updatedAt: expect.stringMatching(ISO),
      },
    ]);
    const one = spawnCli(['deliveries', j.id(1, 'tickets'), '--config', j.config, '--json'], {});
    expect(await one.exited).toBe(0);
    expect(JSON.parse(one.stdout())).toMatchObject({
      id: j.id(1, 'tickets'),
      title: TITLES[1],
      createdAt: '2025-01-11T10:00:00.000Z',
      history: [{ number: 1, startedAt: expect.stringMatching(ISO), outcome: 'dead', statusCode: 400 }],
    });
  }, 60_000);
});

describe('switchyard deliveries: usage errors', () => {
  it.each([
    [
      ['--state', 'lost'],
      '--state must be one of pending, delivered, dead, skipped, silenced, muted, suppressed, grouped, got "lost"',
    ],
    [
      ['--state', 'DEAD'],
      '--state must be one of pending, delivered, dead, skipped, silenced, muted, suppressed, grouped, got "DEAD"',
    ],
    [['--since', 'yesterday'], '--since: "yesterday" is not a date-time, a date or a duration'],
    [['--since', '2h ago'], '--since: "2h ago" is not a date-time, a date or a duration'],
    [['--since', '2026-11-22T10:00:00'], '--since: "2026-11-22T10:00:00" is not a date-time'],
    [['--since', '2026-02-30'], '--since: "2026-02-30" is not a date-time'],
    [['--until', 'soon'], '--until: "soon" is not a date-time, a date or a duration'],
    [['--limit', '0'], '--limit must be a positive integer, got "0"'],
    [['--since'], "Option '--since <value>' argument missing"],
    [['--sinse', '2h'], "Unknown option '--sinse'"],
  ])('refuses %j with exit 2, usage on stderr, and changes nothing', async (args, message) => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const io = fakeCliIo(j.dir);
    expect(await runDeliveries(['--config', j.config, ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.err()).toContain('usage: switchyard deliveries');
    expect(io.out()).toBe('');
    expect(await j.snapshot()).toEqual(before);
  });
});
