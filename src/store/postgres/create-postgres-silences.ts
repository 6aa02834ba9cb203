import type pg from 'pg';
import { deliveryRowIds } from '../sqlite/delivery-filter-sql.js';
import type { SilenceChange, SilenceFilter, StoredSilence } from '../stored-silence.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

const COLUMNS = `id, matchers, starts_at AS "startsAt", ends_at AS "endsAt", comment, created_by AS "createdBy",
  on_expiry AS "onExpiry", created_at AS "createdAt", updated_at AS "updatedAt", released_at AS "releasedAt"`;

/** The silences table of the PostgreSQL journal (migration 4); as the SQLite one. */
export function createPostgresSilences(pool: pg.Pool) {
  const getSilence = async (id: string): Promise<StoredSilence | undefined> =>
    (await pool.query<StoredSilence>(`SELECT ${COLUMNS} FROM silences WHERE id = $1`, [id])).rows[0];
  return {
    async createSilence(s: StoredSilence): Promise<void> {
      await pool.query(
        `INSERT INTO silences (id, matchers, starts_at, ends_at, comment, created_by, on_expiry, created_at, updated_at)
         VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9)`,
        [
          s.id,
          JSON.stringify(s.matchers),
          s.startsAt,
          s.endsAt,
          s.comment,
          s.createdBy,
          s.onExpiry,
          s.createdAt,
          s.updatedAt,
        ],
      );
    },
    getSilence,
    async findSilences(filter: SilenceFilter): Promise<StoredSilence[]> {
      const conditions: string[] = [];
      const params: number[] = [];
      if (filter.activeAt !== undefined) {
        params.push(filter.activeAt);
        conditions.push(`starts_at <= $${params.length} AND ends_at > $${params.length}`);
      }
      if (filter.notEndedAt !== undefined) {
        params.push(filter.notEndedAt);
        conditions.push(`ends_at > $${params.length}`);
      }
      if (filter.unreleasedAt !== undefined) {
        params.push(filter.unreleasedAt);
        conditions.push(`on_expiry = 'deliver_unresolved' AND released_at IS NULL AND ends_at <= $${params.length}`);
      }
      params.push(filter.limit ?? 1000);
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const result = await pool.query<StoredSilence>(
        `SELECT ${COLUMNS} FROM silences ${where} ORDER BY id DESC LIMIT $${params.length}`,
        params,
      );
      return result.rows;
    },
    async updateSilence(id: string, change: SilenceChange, now: number): Promise<StoredSilence | undefined> {
      await pool.query(
        `UPDATE silences SET ends_at = coalesce($1, ends_at), comment = coalesce($2, comment), updated_at = $3
         WHERE id = $4`,
        [change.endsAt ?? null, change.comment ?? null, now, id],
      );
      return getSilence(id);
    },
    releaseSilence(id: string, deliveryIds: readonly string[], now: number): Promise<number | undefined> {
      return withPostgresTransaction(pool, async (client) => {
        // The row lock of this UPDATE makes a second instance's attempt wait, then find released_at set.
        const marked = await client.query(
          'UPDATE silences SET released_at = $1 WHERE id = $2 AND released_at IS NULL',
          [now, id],
        );
        if (marked.rowCount === 0) return undefined;
        const requeued = await client.query(
          `UPDATE deliveries SET state = 'pending', next_attempt_at = $1, retry_from = $1, schedule_attempts = 0,
             updated_at = $1
           WHERE id = ANY($2::bigint[]) AND state = 'silenced' AND held_by = $3`,
          [now, deliveryRowIds(deliveryIds), id],
        );
        return requeued.rowCount ?? 0;
      });
    },
  };
}
