import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log/logger.js';
import { runEvery } from '../../src/noise/run-every.js';
import { SwitchyardError } from '../../src/switchyard-error.js';

function recordingLog(): { log: Logger; errors: string[] } {
  const errors: string[] = [];
  const ignore = () => undefined;
  const log = { error: (message: string) => errors.push(message), warn: ignore, info: ignore, debug: ignore };
  return { log: { ...log, addSecrets: ignore }, errors };
}

/** Runs a job whose every pass throws `error` until it has failed `times` times. */
async function failing(error: Error, times: number): Promise<string[]> {
  const { log, errors } = recordingLog();
  let passes = 0;
  let done: () => void = () => undefined;
  const enough = new Promise<void>((resolve) => (done = resolve));
  const job = runEvery(
    1,
    async () => {
      passes += 1;
      if (passes >= times) done();
      throw error;
    },
    log,
    'the job failed; retrying',
  );
  await enough;
  await job.stop();
  return errors;
}

describe('runEvery', () => {
  it('logs every failed pass', async () => {
    const errors = await failing(new SwitchyardError('journal_unavailable', 'locked'), 3);
    expect(errors.length).toBeGreaterThanOrEqual(3);
  });
});
