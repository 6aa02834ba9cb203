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

  it('refuses a bad --timeout with usage and exit 2', async () => {
    const io = fakeCliIo(process.cwd());
    expect(await runDemoCommand(['--timeout', 'soon'], io)).toBe(2);
    expect(io.err()).toContain('--timeout takes a positive number of seconds');
    expect(io.out()).toBe('');
  });
});
