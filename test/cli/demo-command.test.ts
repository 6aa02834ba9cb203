import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDemoCommand } from '../../src/cli/demo-command.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { spawnCli } from '../helpers/spawn-cli.js';

describe('switchyard demo (CLI)', () => {
  it('runs with nothing configured, prints the delivery table and exits 0', async () => {
    // No environment at all but PATH: the demo must not need any variable, config or rules of the caller.
    const cli = spawnCli(['demo'], {});
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/^EVENT +SEVERITY +TARGET +STATE +ATTEMPTS +ANSWERS$/m);
    expect(cli.stdout()).toContain('All 14 deliveries delivered.');
    expect(cli.stderr()).toBe('');
  });

  it('with --keep, keeps the console reachable until Ctrl-C, then exits 0 and leaves the folder', async () => {
    const cli = spawnCli(['demo', '--keep'], {});
    try {
      const line = await cli.waitFor('The console: ', 30_000);
      const url = /http:\/\/\S+/.exec(line)?.[0] ?? 'missing';
      const key = /admin key (sy_\S+)/.exec(await cli.waitFor('admin key'))?.[1] ?? 'missing';
      const answer = await fetch(new URL('/api/v1/rules', url), { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
      const folder = /config and journal in (\S+)/.exec(cli.stdout())?.[1] ?? 'missing';
      expect(existsSync(folder)).toBe(true);
      rmSync(folder, { recursive: true, force: true });
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('refuses a bad --timeout with usage and exit 2', async () => {
    const io = fakeCliIo(process.cwd());
    expect(await runDemoCommand(['--timeout', 'soon'], io)).toBe(2);
    expect(io.err()).toContain('--timeout takes a positive number of seconds');
    expect(io.out()).toBe('');
  });
});
