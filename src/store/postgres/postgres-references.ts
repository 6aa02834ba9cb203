import type pg from 'pg';
import type { AttemptRecord, ReferenceFilter, StoredDelivery, StoredReference } from '../store.js';

/**
 * Issue 14: the values remembered for the claimed deliveries' targets and keys (key_references), keyed by
 * `target \n key`; one query, and none when no claimed delivery has a key.
 */
export async function readPostgresReferences(
  pool: pg.Pool,
  rows: readonly Pick<StoredDelivery, 'target' | 'correlationKey'>[],
): Promise<Map<string, Record<string, string>>> {
  const keyed = rows.filter((row) => row.correlationKey !== null && row.correlationKey !== undefined);
  if (keyed.length === 0) return new Map();
  const result = await pool.query<{ target: string; key: string; values: Record<string, string> }>(
    `SELECT r.target, r.key, r.ref_values AS values FROM key_references r
     JOIN unnest($1::text[], $2::text[]) AS k (target, key) ON r.target = k.target AND r.key = k.key`,
    [keyed.map((row) => row.target), keyed.map((row) => row.correlationKey)],
  );
  return new Map(result.rows.map((row) => [`${row.target}\n${row.key}`, row.values]));
}

/**
 * Applies the references of attempts that delivered, in the recording transaction, for deliveries with a key:
 * merged (jsonb `||`, later values win) or cleared after a resolve. `applied` are the rows whose record went in.
 */
export async function writePostgresReferences(
  client: pg.PoolClient,
  records: readonly (AttemptRecord & { rowId: number })[],
  applied: ReadonlySet<number>,
): Promise<void> {
  const writes = records.filter(
    (r) => r.references !== undefined && r.next.state === 'delivered' && applied.has(r.rowId),
  );
  if (writes.length === 0) return;
  for (const record of writes) {
    const references = record.references;
    const at = record.attempt.startedAt + record.attempt.durationMs;
    if (references === undefined) continue;
    if ('clear' in references) {
      await client.query(
        `DELETE FROM key_references r USING deliveries d
         WHERE d.id = $1 AND d.correlation_key IS NOT NULL AND r.target = d.target AND r.key = d.correlation_key`,
        [record.rowId],
      );
    } else {
      await client.query(
        `INSERT INTO key_references (target, key, ref_values, updated_at)
         SELECT target, correlation_key, $2::jsonb, $3 FROM deliveries WHERE id = $1 AND correlation_key IS NOT NULL
         ON CONFLICT (target, key) DO UPDATE SET ref_values = key_references.ref_values || excluded.ref_values,
           updated_at = excluded.updated_at`,
        [record.rowId, JSON.stringify(references.merge), at],
      );
    }
  }
}

/** The references remembered per target and key, most recently written first (admin API). */
export async function findPostgresReferences(pool: pg.Pool, filter: ReferenceFilter): Promise<StoredReference[]> {
  const result = await pool.query<{ target: string; key: string; values: Record<string, string>; updatedAt: string }>(
    `SELECT target, key, ref_values AS values, updated_at AS "updatedAt" FROM key_references
     WHERE ($1::text IS NULL OR target = $1) AND ($2::text IS NULL OR key = $2)
     ORDER BY updated_at DESC, target, key LIMIT $3`,
    [filter.target ?? null, filter.key ?? null, filter.limit],
  );
  return result.rows.map((row) => ({ ...row, updatedAt: Number(row.updatedAt) }));
}
