import { afterEach, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('a config that names a removed option', () => {
  const daemons: TestDaemon[] = [];
  afterEach(async () => {
    for (const daemon of daemons.splice(0)) await daemon.running.close();
  });

  it('starts the daemon, which warns at start that the option is ignored', async () => {
    const daemon = await startTestDaemon(tempDir(), { config: 'delivery: { worker_thread: true }' });
    daemons.push(daemon);
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^config delivery\.worker_thread: removed and ignored: /),
        where: expect.stringMatching(/switchyard\.yaml:\d+:\d+$/),
      }),
    );
  });
});
