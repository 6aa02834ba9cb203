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
});
