import type Database from 'better-sqlite3';
import type { SilenceChange, SilenceFilter, StoredSilence } from '../stored-silence.js';
import { deliveryRowIds } from './delivery-filter-sql.js';

const COLUMNS = `id, matchers, starts_at AS startsAt, ends_at AS endsAt, comment, created_by AS createdBy,
  on_expiry AS onExpiry, created_at AS createdAt, updated_at AS updatedAt, released_at AS releasedAt`;

type SilenceRow = Omit<StoredSilence, 'matchers'> & { matchers: string };

const fromRow = (row: SilenceRow): StoredSilence => ({ ...row, matchers: JSON.parse(row.matchers) as object });

/** The silences table of the SQLite journal (migration 4). */
export function createSqliteSilences(db: Database.Database) {
  const insert = db.prepare<[Record<string, unknown>]>(
    `INSERT INTO silences (id, matchers, starts_at, ends_at, comment, created_by, on_expiry, created_at, updated_at)
     VALUES (@id, @matchers, @startsAt, @endsAt, @comment, @createdBy, @onExpiry, @createdAt, @updatedAt)`,
  );
  const get = db.prepare<[id: string], SilenceRow>(`SELECT ${COLUMNS} FROM silences WHERE id = ?`);
  const update = db.prepare<[endsAt: number | null, comment: string | null, now: number, id: string]>(
    `UPDATE silences SET ends_at = coalesce(?, ends_at), comment = coalesce(?, comment), updated_at = ? WHERE id = ?`,
  );
  const markReleased = db.prepare<[now: number, id: string]>(
    'UPDATE silences SET released_at = ? WHERE id = ? AND released_at IS NULL',
  );
  const requeue = db.prepare<[now: number, now2: number, now3: number, rowId: number, silenceId: string]>(
    `UPDATE deliveries SET state = 'pending', next_attempt_at = ?, retry_from = ?, schedule_attempts = 0,
       updated_at = ? WHERE id = ? AND state = 'silenced' AND held_by = ?`,
  );
  const release = db.transaction((id: string, rowIds: number[], now: number): number | undefined => {
    if (markReleased.run(now, id).changes === 0) return undefined;
    let count = 0;
    for (const rowId of rowIds) count += requeue.run(now, now, now, rowId, id).changes;
    return count;
  });

  return {
    createSilence(silence: StoredSilence): void {
      insert.run({ ...silence, matchers: JSON.stringify(silence.matchers) });
    },
    getSilence(id: string): StoredSilence | undefined {
      const row = get.get(id);
      return row && fromRow(row);
    },
    findSilences(filter: SilenceFilter): StoredSilence[] {
      const conditions: string[] = [];
      const params: number[] = [];
      if (filter.activeAt !== undefined) {
        conditions.push('starts_at <= ? AND ends_at > ?');
        params.push(filter.activeAt, filter.activeAt);
      }
      if (filter.notEndedAt !== undefined) {
        conditions.push('ends_at > ?');
        params.push(filter.notEndedAt);
      }
      if (filter.unreleasedAt !== undefined) {
        conditions.push("on_expiry = 'deliver_unresolved' AND released_at IS NULL AND ends_at <= ?");
        params.push(filter.unreleasedAt);
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const rows = db
        .prepare<(number | string)[], SilenceRow>(`SELECT ${COLUMNS} FROM silences ${where} ORDER BY id DESC LIMIT ?`)
        .all(...params, filter.limit ?? 1000);
      return rows.map(fromRow);
    },
    updateSilence(id: string, change: SilenceChange, now: number): StoredSilence | undefined {
      update.run(change.endsAt ?? null, change.comment ?? null, now, id);
      const row = get.get(id);
      return row && fromRow(row);
    },
    releaseSilence(id: string, deliveryIds: readonly string[], now: number): number | undefined {
      return release.immediate(id, deliveryRowIds(deliveryIds), now);
    },
  };
}

export type SqliteSilences = ReturnType<typeof createSqliteSilences>;
