import type pg from 'pg';
import type { ConsoleJournal, EventsPerMinute } from '../console-journal.js';
import { CONSOLE_SQL, firstEventIdAt } from '../console-sql.js';
import { minuteOf } from '../event-count-buckets.js';
import { DELIVERY_STATES, type DeliveryState } from '../delivery-state.js';
import { toStoredDelivery } from '../key-order-sql.js';
import { mergeTargetHealth } from '../merge-target-health.js';
import type { StoredDelivery } from '../store.js';
import { parseDeliveryId } from '../sqlite/parse-delivery-id.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import { numbered } from './numbered.js';
import { postgresEventFilter } from './postgres-event-filter.js';

/** The console's reads (ConsoleJournal) on PostgreSQL; the same SQL and indexes as SQLite's where they agree. */
export function createPostgresConsole(pool: pg.Pool): ConsoleJournal {
  return {
    async eventIdAt(filter, offset) {
      const { where, params } = postgresEventFilter(filter);
      const { rows } = await pool.query<{ id: string }>(
        `SELECT events.id FROM events ${where} ORDER BY events.id ${filter.order === 'newest' ? 'DESC' : 'ASC'}
         LIMIT 1 OFFSET $${params.length + 1}`,
        [...params, offset],
      );
      return rows[0]?.id;
    },
    async eventsPerMinute(since, bucketMs = 60_000) {
      const first = minuteOf(since);
      const { rows } = await pool.query<EventsPerMinute>(numbered(CONSOLE_SQL.eventsPerMinute), [
        first,
        first,
        bucketMs,
        bucketMs,
        first,
      ]);
      // sum() of bigints is a numeric, which pg hands over as text.
      return rows.map((row) => ({ ...row, minute: Number(row.minute), count: Number(row.count) }));
    },
    async countDeliveriesByState(since) {
      const counts = await Promise.all(
        DELIVERY_STATES.map(async (state) => {
          const { rows } = await pool.query<{ count: string }>(numbered(CONSOLE_SQL.countByStateSince), [state, since]);
          return { state, count: Number(rows[0]?.count ?? 0) };
        }),
      );
      return counts.filter((row) => row.count > 0);
    },
    async targetHealth() {
      const [counts, errors] = await Promise.all([
        pool.query<{ target: string; state: DeliveryState; count: number; retrying: number }>(
          `SELECT target, state, count(*) AS count,
             sum(CASE WHEN state = 'pending' AND attempts > 0 THEN 1 ELSE 0 END) AS retrying
           FROM deliveries WHERE state IN ('pending', 'dead') GROUP BY target, state`,
        ),
        pool.query<{ target: string; lastError: string; lastErrorAt: number }>(
          `SELECT DISTINCT ON (target) target, last_error AS "lastError", updated_at AS "lastErrorAt" FROM deliveries
           WHERE state IN ('pending', 'dead') AND last_error IS NOT NULL ORDER BY target, updated_at DESC`,
        ),
      ]);
      return mergeTargetHealth(counts.rows, errors.rows);
    },
    async findChangedDeliveries(after, before, limit) {
      const { rows } = await pool.query<StoredDelivery>(
        `SELECT ${POSTGRES_COLUMNS.listedDelivery} FROM deliveries WHERE (updated_at, id) > ($1, $2)
           AND updated_at < $3
         ORDER BY updated_at, id LIMIT $4`,
        [after.updatedAt, parseDeliveryId(after.id) ?? 0, before, limit],
      );
      return rows.map(toStoredDelivery);
    },
    async latestChange(before) {
      const [event, delivery] = await Promise.all([
        pool.query<{ id: string }>(numbered(CONSOLE_SQL.latestEvent), [firstEventIdAt(before)]),
        pool.query<{ updatedAt: number; id: string }>(
          `SELECT updated_at AS "updatedAt", 'dlv_' || id AS id FROM deliveries WHERE updated_at < $1
           ORDER BY updated_at DESC, id DESC LIMIT 1`,
          [before],
        ),
      ]);
      return { eventId: event.rows[0]?.id ?? null, delivery: delivery.rows[0] ?? null };
    },
  };
}
