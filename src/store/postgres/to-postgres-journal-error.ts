import pg from 'pg';
import { SwitchyardError } from '../../switchyard-error.js';

// SQLSTATE codes and classes that mean "the journal cannot take this right now" rather than "this statement
// is wrong": the sender should retry later (HTTP 503), and the store recovers once the condition clears.
// Exact codes first, then two-character classes. https://www.postgresql.org/docs/current/errcodes-appendix.html
const UNAVAILABLE_CODES: readonly (readonly [code: string, reason: string])[] = [
  ['53100', 'the disk is full'],
  ['25006', 'it is read-only'],
  ['57014', 'a statement timed out'],
  ['55P03', 'it is locked by another connection'],
  ['40001', 'a concurrent transaction conflicted with this one'],
  ['40P01', 'a concurrent transaction conflicted with this one'],
  ['3D000', 'the database does not exist'],
  ['08', 'the connection to PostgreSQL failed'],
  ['28', 'PostgreSQL refused the credentials'],
  ['53', 'PostgreSQL is out of resources'],
  ['57', 'PostgreSQL is shutting down or starting up'],
  ['58', 'PostgreSQL reported a system error'],
];

// Socket errors carry Node's errno codes; pg's own connection errors carry none, only these messages.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/**
 * Turns a pg error that means the journal is unavailable into a `journal_unavailable` SwitchyardError
 * (status 503); returns anything else unchanged, for the caller to rethrow. The message names only the
 * condition and the code, never statement values or the connection URL; the original error stays as `cause`.
 */
export function toPostgresJournalError(error: unknown): unknown {
  const reason = unavailableReason(error);
  if (reason === undefined) return error;
  return new SwitchyardError('journal_unavailable', `the event journal is unavailable: ${reason}`, {
    status: 503,
    cause: error,
  });
}

function unavailableReason(error: unknown): string | undefined {
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    const match = UNAVAILABLE_CODES.find(([prefix]) => code.startsWith(prefix));
    return match === undefined ? undefined : `${match[1]} (${code})`;
  }
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && NETWORK_CODES.has(code)) return `cannot reach PostgreSQL (${code})`;
  if (error instanceof AggregateError && error.errors.some((inner) => unavailableReason(inner) !== undefined)) {
    // Node's happy-eyeballs connect reports one error per address tried.
    return `cannot reach PostgreSQL (${code ?? 'all addresses failed'})`;
  }
  if (CONNECTION_MESSAGES.test(error.message)) return 'the connection to PostgreSQL was lost or timed out';
  return undefined;
}
