/**
 * The backfill of `event_counts` both journals' migration 8 runs: the events of the last 48 hours (the
 * overview's longest window) by the wall clock, from the start of that minute, counted under `writer`.
 *
 * Bounded whatever the journal's size: event ids start with their receipt time in Crockford base32 (ULIDs,
 * new-id.ts), so the window's first possible id is built here from the cutoff, 10 characters of 5 bits, and
 * the scan walks only that part of the primary key. `now_ms` is the dialect's wall clock in ms.
 */
export function eventCountsBackfillSql(nowMs: string, writer: string): string {
  return `
    WITH RECURSIVE cutoff (ms) AS (SELECT ((${nowMs}) / 60000 - 48 * 60) * 60000),
    prefix (i, s) AS (
      SELECT 0, CAST('' AS TEXT)
      UNION ALL
      SELECT i + 1, s || substr(
        '0123456789ABCDEFGHJKMNPQRSTVWXYZ',
        CAST((((SELECT ms FROM cutoff) >> (5 * (9 - i))) & 31) + 1 AS INTEGER),
        1
      )
      FROM prefix WHERE i < 10
    )
    INSERT INTO event_counts (minute, kind, severity, writer, count)
    SELECT (received_at / 60000) * 60000, kind, coalesce(severity, ''), ${writer}, count(*)
    FROM events
    WHERE id >= 'evt_' || (SELECT s FROM prefix WHERE i = 10) AND received_at >= (SELECT ms FROM cutoff)
    GROUP BY (received_at / 60000) * 60000, kind, coalesce(severity, '');
  `;
}
