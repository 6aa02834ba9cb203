import { expect } from 'vitest';
import { SwitchyardError } from '../../src/switchyard-error.js';

/** Runs `run`, which must throw an `invalid_config` SwitchyardError, and returns that error. */
export function configFailure(run: () => unknown): SwitchyardError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).code).toBe('invalid_config');
    return error as SwitchyardError;
  }
  throw new Error('expected loadConfig to fail');
}
