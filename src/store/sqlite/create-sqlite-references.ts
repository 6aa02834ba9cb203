import type Database from 'better-sqlite3';
import type { AttemptRecord, ReferenceFilter, StoredReference } from '../store.js';

/**
 * Issue 14: what a target remembers per correlation key (key_references, migration 5), read with each claim and
 * written with the attempt that delivered, in the caller's transaction.
 */
export function createSqliteReferences(db: Database.Database) {
  const read = db
    .prepare<[target: string, key: string], string>(
      'SELECT ref_values FROM key_references WHERE target = ? AND key = ?',
    )
    .pluck();
  // json_patch merges objects (RFC 7396); captured values are strings, never null, so nothing is removed.
  const merge = db.prepare<[target: string, key: string, values: string, now: number]>(
    `INSERT INTO key_references (target, key, ref_values, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (target, key) DO UPDATE SET ref_values = json_patch(ref_values, excluded.ref_values),
       updated_at = excluded.updated_at`,
  );
  const clear = db.prepare<[target: string, key: string]>('DELETE FROM key_references WHERE target = ? AND key = ?');
  const markStarted = db.prepare<[rowId: number]>('UPDATE deliveries SET started_key = 1 WHERE id = ?');
  const startedKey = db.prepare<[rowId: number], number>('SELECT started_key FROM deliveries WHERE id = ?').pluck();
  const deliveryKey = db.prepare<[rowId: number], { target: string; key: string | null }>(
    'SELECT target, correlation_key AS key FROM deliveries WHERE id = ?',
  );

  // One statement per filter shape: with `(@target IS NULL OR target = @target)` SQLite cannot use the primary
  // key and walked every reference by update time (121 ms at 200,000 keys, the event loop blocked meanwhile)
  // for the one-key lookups of the event page, the route test and the rules check.
  const columns = 'SELECT target, key, ref_values AS "values", updated_at AS updatedAt FROM key_references';
  const order = 'ORDER BY updated_at DESC, target, key LIMIT @limit';
  type Row = { target: string; key: string; values: string; updatedAt: number };
  type Filter = { target: string | null; key: string | null; limit: number };
  const list = {
    both: db.prepare<Filter, Row>(`${columns} WHERE target = @target AND key = @key ${order}`),
    target: db.prepare<Filter, Row>(`${columns} WHERE target = @target ${order}`),
    key: db.prepare<Filter, Row>(`${columns} WHERE key = @key ${order}`),
    all: db.prepare<Filter, Row>(`${columns} ${order}`),
  };

  return {
    find(filter: ReferenceFilter): StoredReference[] {
      const params = { target: filter.target ?? null, key: filter.key ?? null, limit: filter.limit };
      const shape =
        params.target === null ? (params.key === null ? 'all' : 'key') : params.key === null ? 'target' : 'both';
      const rows = list[shape].all(params);
      return rows.map((row) => ({ ...row, values: JSON.parse(row.values) as Record<string, string> }));
    },
    /**
     * The values stored for the key, or null when none (nothing delivered yet, or cleared by a resolve), and
     * for the delivery (`rowId`) that started the key: replayed, it is sent as the create it was.
     */
    read(target: string, key: string | null | undefined, rowId?: number): Record<string, string> | null {
      if (key === null || key === undefined) return null;
      if (rowId !== undefined && startedKey.get(rowId) === 1) return null;
      const values = read.get(target, key);
      return values === undefined ? null : (JSON.parse(values) as Record<string, string>);
    },
    /** Applies a recorded attempt's `references` to its delivery's key; a delivery without a key has none. */
    write(rowId: number, references: AttemptRecord['references'], now: number): void {
      if (references === undefined) return;
      const row = deliveryKey.get(rowId);
      if (row === undefined || row.key === null) return;
      if ('clear' in references) clear.run(row.target, row.key);
      else merge.run(row.target, row.key, JSON.stringify(references.merge), now);
      if ('merge' in references && references.started === true) markStarted.run(rowId);
    },
  };
}

export type SqliteReferences = ReturnType<typeof createSqliteReferences>;
