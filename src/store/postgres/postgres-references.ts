import type pg from 'pg';
import type { AttemptRecord, ReferenceFilter, StoredDelivery, StoredReference } from '../store.js';
import { withValues } from './with-values.js';

/**
 * Issue 14: the values remembered for the claimed deliveries' targets and keys (key_references), by delivery
 * row id; one query, and none when no claimed delivery has a key. A delivery that started its key (a replayed
 * create) gets none: it is sent as the create it was.
 */
export async function readPostgresReferences(
  pool: pg.Pool,
  rows: readonly (Pick<StoredDelivery, 'correlationKey'> & { readonly rowId: number })[],
): Promise<Map<number, Record<string, string>>> {
  const keyed = rows.filter((row) => row.correlationKey !== null && row.correlationKey !== undefined);
  if (keyed.length === 0) return new Map();
  const result = await pool.query<{ id: string; values: Record<string, string> }>(
    `SELECT d.id, r.ref_values AS values FROM deliveries d
     JOIN key_references r ON r.target = d.target AND r.key = d.correlation_key
     WHERE d.id = ANY($1::bigint[]) AND NOT d.started_key`,
    [keyed.map((row) => row.rowId)],
  );
  return new Map(result.rows.map((row) => [Number(row.id), row.values]));
}

// A key with a clear among the writes loses its row first; the merges after its last clear then start afresh.
const CLEAR = `DELETE FROM key_references r USING deliveries d
   WHERE d.id = ANY($1::bigint[]) AND d.correlation_key IS NOT NULL AND r.target = d.target AND r.key = d.correlation_key`;

// The merges after each key's last clear (merge NULL is a clear), folded in order into one value per key: a
// name's latest value wins, as `||` applied one write at a time would leave it, and an empty merge still
// makes the row (the key has started). One row per key, so ON CONFLICT never meets a key twice.
const MERGE = `WITH w AS (
     SELECT t.merge, t.at, t.ord, d.target, d.correlation_key AS key
     FROM unnest($1::bigint[], $2::jsonb[], $3::bigint[]) WITH ORDINALITY AS t (id, merge, at, ord)
     JOIN deliveries d ON d.id = t.id
     WHERE d.correlation_key IS NOT NULL
   ), live AS (
     SELECT * FROM w
     WHERE merge IS NOT NULL AND ord > coalesce(
       (SELECT max(c.ord) FROM w AS c WHERE c.merge IS NULL AND c.target = w.target AND c.key = w.key), 0)
   ), latest AS (
     SELECT DISTINCT ON (l.target, l.key, e.name) l.target, l.key, e.name, e.value
     FROM live AS l, jsonb_each(l.merge) AS e (name, value)
     ORDER BY l.target, l.key, e.name, l.ord DESC
   )
   INSERT INTO key_references (target, key, ref_values, updated_at)
   SELECT l.target, l.key,
     coalesce((SELECT jsonb_object_agg(x.name, x.value) FROM latest AS x WHERE x.target = l.target AND x.key = l.key),
       '{}'::jsonb),
     (array_agg(l.at ORDER BY l.ord DESC))[1]
   FROM live AS l GROUP BY l.target, l.key
   ON CONFLICT (target, key) DO UPDATE SET ref_values = key_references.ref_values || excluded.ref_values,
     updated_at = excluded.updated_at`;

const MARK_STARTED = 'UPDATE deliveries SET started_key = true WHERE id = ANY($1::bigint[])';

/**
 * The statements that apply, in the recording transaction, the references of attempts that delivered, for
 * deliveries with a key (issue 14): merged (jsonb `||`, later values win) or cleared after a resolve, with the
 * effect of applying them one at a time in the records' order. At most two statements whatever the number of
 * records (issue 11: a statement per record cost a round trip and a plan each), and one marking the deliveries
 * that started their key (a replay of one is sent as a create again), their values written in
 * (with-values.ts): they need no answer, so they travel with the transaction's COMMIT. `applied` are the
 * records that went in, in the batch's order; only the delivered ones with references write.
 */
export function referenceWrites(applied: readonly (AttemptRecord & { rowId: number })[]): string[] {
  const writes = applied.filter((r) => r.references !== undefined && r.next.state === 'delivered');
  if (writes.length === 0) return [];
  const merges = writes.map((r) =>
    r.references && 'merge' in r.references ? JSON.stringify(r.references.merge) : null,
  );
  const cleared = writes.filter((_, index) => merges[index] === null).map((r) => r.rowId);
  const started = writes.filter((r) => r.references && 'merge' in r.references && r.references.started === true);
  const ats = writes.map((r) => r.attempt.startedAt + r.attempt.durationMs);
  return [
    ...(cleared.length > 0 ? [withValues(CLEAR, [cleared])] : []),
    ...(cleared.length < writes.length ? [withValues(MERGE, [writes.map((r) => r.rowId), merges, ats])] : []),
    ...(started.length > 0 ? [withValues(MARK_STARTED, [started.map((r) => r.rowId)])] : []),
  ];
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
