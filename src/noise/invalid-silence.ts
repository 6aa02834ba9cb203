import { SwitchyardError } from '../switchyard-error.js';

/** The error of a silence request that cannot be stored as given (400 at the admin API, exit 2 in the CLI). */
export function invalidSilence(message: string): SwitchyardError {
  return new SwitchyardError('invalid_silence', message, { status: 400 });
}
