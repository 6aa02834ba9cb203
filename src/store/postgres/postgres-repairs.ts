import type pg from 'pg';
import { skippedByHand, type RepairAudit, type SkipResult, type StoredRepair } from '../repair-journal.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

const AUDIT = `INSERT INTO repairs (at, actor, action, target, key, delivery_id, reason, detail)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

/** As SQLite's repairs (create-sqlite-repairs.ts): each repair and its audit row in one transaction. */
export function createPostgresRepairs(pool: pg.Pool) {
  return {
    async skip(id: string, by: RepairAudit): Promise<SkipResult> {
      const match = /^dlv_([1-9]\d{0,15})$/.exec(id);
      if (match === null) return 'unknown';
      return withPostgresTransaction(pool, async (client) => {
        const found = await client.query<{ target: string; key: string | null; state: string }>(
          'SELECT target, correlation_key AS key, state FROM deliveries WHERE id = $1 FOR UPDATE',
          [match[1]],
        );
        const row = found.rows[0];
        if (row === undefined) return 'unknown';
        if (row.state !== 'dead') return 'not-dead';
        await client.query(
          `UPDATE deliveries SET state = 'skipped', last_error = $1, claim_token = NULL, updated_at = $2 WHERE id = $3`,
          [skippedByHand(by), by.at, match[1]],
        );
        await client.query(AUDIT, [by.at, by.actor, 'skip', row.target, row.key, match[1], by.reason, null]);
        return 'skipped';
      });
    },
    async setReferences(
      target: string,
      key: string,
      values: Readonly<Record<string, string>> | null,
      by: RepairAudit,
    ): Promise<'set' | 'unknown-key'> {
      const detail = values === null ? null : JSON.stringify(values);
      return withPostgresTransaction(pool, async (client) => {
        const found = await client.query(
          `SELECT 1 FROM key_references WHERE target = $1 AND key = $2
           UNION ALL SELECT 1 FROM deliveries WHERE target = $1 AND correlation_key = $2 LIMIT 1`,
          [target, key],
        );
        if (found.rowCount === 0) return 'unknown-key';
        if (detail === null) {
          await client.query('DELETE FROM key_references WHERE target = $1 AND key = $2', [target, key]);
        } else {
          await client.query(
            `INSERT INTO key_references (target, key, ref_values, updated_at) VALUES ($1, $2, $3::jsonb, $4)
             ON CONFLICT (target, key) DO UPDATE SET ref_values = excluded.ref_values, updated_at = excluded.updated_at`,
            [target, key, detail, by.at],
          );
        }
        const action = values === null ? 'references-clear' : 'references-set';
        await client.query(AUDIT, [by.at, by.actor, action, target, key, null, by.reason, detail]);
        return 'set';
      });
    },
    async find(filter: { readonly target?: string; readonly key?: string; readonly limit: number }) {
      const result = await pool.query<StoredRepair & { id: string; at: string }>(
        `SELECT id, at, actor, action, target, key, CASE WHEN delivery_id IS NULL THEN NULL
           ELSE 'dlv_' || delivery_id END AS "deliveryId", reason, detail FROM repairs
         WHERE ($1::text IS NULL OR target = $1) AND ($2::text IS NULL OR key = $2) ORDER BY id DESC LIMIT $3`,
        [filter.target ?? null, filter.key ?? null, filter.limit],
      );
      return result.rows.map((row): StoredRepair => ({ ...row, id: Number(row.id), at: Number(row.at) }));
    },
  };
}
