/**
 * Recipients still owed a message, kept at the end of the delivery's `last_error` (`… [still owed: a@x, b@y]`):
 * the journal writes it with the attempt, in one transaction, and every claim reads it back, on SQLite and
 * PostgreSQL alike, so a restart or a replay sends to those recipients only. Unlike the attempt detail it is
 * not cut at 300 characters. Readers only trust names the target is configured with (a server's reply text,
 * also in `last_error`, cannot add a recipient).
 */
const MARK = ' [still owed: ';
const OWED = /\s\[still owed: ([^\]]*)\]$/;

export function withOwed(lastError: string | null, owed: readonly string[] | undefined | null): string | null {
  if (owed === undefined || owed === null || owed.length === 0 || lastError === null) return lastError;
  return `${lastError}${MARK}${owed.join(', ')}]`;
}

/** The recipients an earlier attempt left owed, or null (every recipient). */
export function readOwed(lastError: string | null): string[] | null {
  const match = lastError === null ? null : OWED.exec(lastError);
  if (match === null) return null;
  const owed = (match[1] ?? '').split(', ').filter((address) => address !== '');
  return owed.length === 0 ? null : owed;
}
