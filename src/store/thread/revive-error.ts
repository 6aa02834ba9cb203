import { SwitchyardError } from '../../switchyard-error.js';
import type { WireError } from './journal-thread-protocol.js';

const STANDARD: Readonly<Record<string, ErrorConstructor>> = {
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
};

/**
 * Rebuilds, on the main thread, an error the journal thread sent: a `SwitchyardError` as such (callers test
 * `instanceof` and `code`: ingest answers 503 on `journal_unavailable`), standard errors as their class, any
 * other (SQLite's `SqliteError`) as an Error with the same name and props. The stack is the thread's.
 */
export function reviveError(wire: WireError): Error {
  const cause = wire.cause === undefined ? undefined : reviveError(wire.cause);
  let error: Error;
  if (wire.name === 'SwitchyardError' && typeof wire.props.code === 'string') {
    const { status, where, untilRestart } = wire.props;
    error = new SwitchyardError(wire.props.code, wire.message, {
      ...(typeof status === 'number' ? { status } : {}),
      ...(typeof where === 'string' ? { where } : {}),
      ...(untilRestart === true ? { untilRestart } : {}),
      ...(cause === undefined ? {} : { cause }),
    });
  } else {
    error = new (STANDARD[wire.name] ?? Error)(wire.message, cause === undefined ? undefined : { cause });
    Object.assign(error, wire.props);
    if (error.name !== wire.name) error.name = wire.name;
  }
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}
