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
  const deliveryKey = db.prepare<[rowId: number], { target: string; key: string | null }>(
    'SELECT target, correlation_key AS key FROM deliveries WHERE id = ?',
  );

  const list = db.prepare<
    { target: string | null; key: string | null; limit: number },
    { target: string; key: string; values: string; updatedAt: number }
  >(
    `SELECT target, key, ref_values AS "values", updated_at AS updatedAt FROM key_references
     WHERE (@target IS NULL OR target = @target) AND (@key IS NULL OR key = @key)
     ORDER BY updated_at DESC, target, key LIMIT @limit`,
  );

  return {
    find(filter: ReferenceFilter): StoredReference[] {
      const rows = list.all({ target: filter.target ?? null, key: filter.key ?? null, limit: filter.limit });
      return rows.map((row) => ({ ...row, values: JSON.parse(row.values) as Record<string, string> }));
    },
    /** The values stored for the key, or null when none (nothing delivered yet, or cleared by a resolve). */
    read(target: string, key: string | null | undefined): Record<string, string> | null {
      if (key === null || key === undefined) return null;
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
    },
  };
}

export type SqliteReferences = ReturnType<typeof createSqliteReferences>;
