import Database from 'better-sqlite3';
import { SwitchyardError } from '../../switchyard-error.js';

// Result-code families that mean "this journal cannot take writes right now" rather than "this write is
// wrong": the sender should retry later (HTTP 503), and the store recovers once the condition clears.
// Extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE, ...) share their family's prefix.
// https://www.sqlite.org/rescode.html
const UNAVAILABLE: readonly (readonly [prefix: string, reason: string])[] = [
  ['SQLITE_FULL', 'the disk is full'],
  ['SQLITE_BUSY', 'it is locked by another connection'],
  ['SQLITE_LOCKED', 'it is locked by another connection'],
  ['SQLITE_READONLY', 'it is read-only'],
  ['SQLITE_IOERR', 'an I/O error occurred'],
  ['SQLITE_CANTOPEN', 'its file cannot be opened'],
  ['SQLITE_PROTOCOL', 'file locking failed'],
];

/**
 * Turns a better-sqlite3 error that means the journal is unavailable into a `journal_unavailable`
 * SwitchyardError (status 503); returns anything else unchanged, for the caller to rethrow. The message names
 * only the condition and SQLite's code, never values from the statement; the original error stays as `cause`.
 */
export function toJournalError(error: unknown, where?: string): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const code = error.code;
  const match = UNAVAILABLE.find(([prefix]) => code === prefix || code.startsWith(`${prefix}_`));
  if (match === undefined) return error;
  return new SwitchyardError('journal_unavailable', `the event journal is unavailable: ${match[1]} (${code})`, {
    status: 503,
    cause: error,
    ...(where === undefined ? {} : { where }),
  });
}
