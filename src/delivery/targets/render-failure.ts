import { SwitchyardError } from '../../switchyard-error.js';
import type { Outcome } from '../outcome.js';

/**
 * A template that fails to render for this event will fail the same way on every retry: dead-letter the
 * delivery with the reason (it can be replayed after the template is fixed), and keep the daemon running.
 */
export function renderFailure(error: unknown, what: string): Outcome {
  const reason =
    error instanceof SwitchyardError ? error.message : error instanceof Error ? error.message : String(error);
  return { kind: 'permanent', error: `${what} could not be built: ${reason}` };
}
