import type pg from 'pg';
import type { SourceSighting, SourceSilence } from '../source-status.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

const RETURNED = 'last_event_at AS "lastEventAt", rejected, silent_raised_at AS "raisedAt"';

/** The source_status table of the PostgreSQL journal (migration 4); as the SQLite one. */
export function createPostgresSourceStatus(pool: pg.Pool) {
  return {
    recordSourceSightings(sightings: readonly SourceSighting[], now: number): Promise<void> {
      const params = [
        sightings.map((s) => s.source),
        sightings.map((s) => s.lastEventAt),
        sightings.map((s) => s.rejected),
      ];
      const rows = 'unnest($1::text[], $2::bigint[], $3::int[]) AS u (source, seen, rejected)';
      return withPostgresTransaction(pool, async (client) => {
        // A source seen for the first time starts its clock now; then the latest verified event wins, and
        // rejections count from it (a newer event resets them).
        await client.query(
          `INSERT INTO source_status (source, last_event_at) SELECT source, coalesce(seen, $4) FROM ${rows}
           ON CONFLICT (source) DO NOTHING`,
          [...params, now],
        );
        await client.query(
          `UPDATE source_status AS s SET
             rejected = CASE WHEN u.seen > s.last_event_at THEN u.rejected ELSE s.rejected + u.rejected END,
             last_event_at = greatest(s.last_event_at, coalesce(u.seen, s.last_event_at))
           FROM ${rows} WHERE s.source = u.source`,
          params,
        );
      });
    },
    async markSourceSilent(source: string, cutoff: number, now: number): Promise<SourceSilence | undefined> {
      const result = await pool.query<SourceSilence>(
        `UPDATE source_status SET silent_raised_at = $1
         WHERE source = $2 AND silent_raised_at IS NULL AND last_event_at <= $3 RETURNING ${RETURNED}`,
        [now, source, cutoff],
      );
      return result.rows[0];
    },
    markSourceRecovered(source: string): Promise<SourceSilence | undefined> {
      return withPostgresTransaction(pool, async (client) => {
        const found = await client.query<SourceSilence>(
          `SELECT ${RETURNED} FROM source_status
           WHERE source = $1 AND silent_raised_at IS NOT NULL AND last_event_at >= silent_raised_at FOR UPDATE`,
          [source],
        );
        const row = found.rows[0];
        if (row !== undefined)
          await client.query('UPDATE source_status SET silent_raised_at = NULL WHERE source = $1', [source]);
        return row;
      });
    },
  };
}
