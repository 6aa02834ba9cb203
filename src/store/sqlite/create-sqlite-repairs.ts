import type Database from 'better-sqlite3';
import { skippedByHand, type RepairAudit, type SkipResult, type StoredRepair } from '../repair-journal.js';
import { parseDeliveryId } from './parse-delivery-id.js';

/** The repairs of a key's line (repair-journal.ts), each with its audit row in one transaction. */
export function createSqliteRepairs(db: Database.Database) {
  const audit = db.prepare<
    [
      at: number,
      actor: string,
      action: string,
      target: string,
      key: string | null,
      rowId: number | null,
      reason: string,
      detail: string | null,
    ]
  >(
    `INSERT INTO repairs (at, actor, action, target, key, delivery_id, reason, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deliveryOf = db.prepare<[rowId: number], { target: string; key: string | null; state: string }>(
    'SELECT target, correlation_key AS key, state FROM deliveries WHERE id = ?',
  );
  const skip = db.prepare<[lastError: string, now: number, rowId: number]>(
    `UPDATE deliveries SET state = 'skipped', last_error = ?, claim_token = NULL, updated_at = ?
     WHERE id = ? AND state = 'dead'`,
  );
  const replace = db.prepare<[target: string, key: string, values: string, now: number]>(
    `INSERT INTO key_references (target, key, ref_values, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (target, key) DO UPDATE SET ref_values = excluded.ref_values, updated_at = excluded.updated_at`,
  );
  const known = db
    .prepare<[target: string, key: string, targetAgain: string, keyAgain: string], number>(
      `SELECT EXISTS (SELECT 1 FROM key_references WHERE target = ? AND key = ?)
         OR EXISTS (SELECT 1 FROM deliveries WHERE target = ? AND correlation_key = ?)`,
    )
    .pluck();
  const clear = db.prepare<[target: string, key: string]>('DELETE FROM key_references WHERE target = ? AND key = ?');
  type Row = Omit<StoredRepair, 'deliveryId'> & { deliveryId: number | null };
  const list = db.prepare<{ target: string | null; key: string | null; limit: number }, Row>(
    `SELECT id, at, actor, action, target, key, delivery_id AS deliveryId, reason, detail FROM repairs
     WHERE (@target IS NULL OR target = @target) AND (@key IS NULL OR key = @key) ORDER BY id DESC LIMIT @limit`,
  );

  const skipTransaction = db.transaction((id: string, by: RepairAudit): SkipResult => {
    const rowId = parseDeliveryId(id);
    const row = rowId === undefined ? undefined : deliveryOf.get(rowId);
    if (rowId === undefined || row === undefined) return 'unknown';
    if (skip.run(skippedByHand(by), by.at, rowId).changes === 0) return 'not-dead';
    audit.run(by.at, by.actor, 'skip', row.target, row.key, rowId, by.reason, null);
    return 'skipped';
  });
  const setTransaction = db.transaction(
    (target: string, key: string, values: Readonly<Record<string, string>> | null, by: RepairAudit) => {
      if (known.get(target, key, target, key) !== 1) return 'unknown-key';
      const detail = values === null ? null : JSON.stringify(values);
      if (detail === null) clear.run(target, key);
      else replace.run(target, key, detail, by.at);
      const action = values === null ? 'references-clear' : 'references-set';
      audit.run(by.at, by.actor, action, target, key, null, by.reason, detail);
      return 'set';
    },
  );

  return {
    skip: (id: string, by: RepairAudit) => skipTransaction.immediate(id, by),
    setReferences: (
      target: string,
      key: string,
      values: Readonly<Record<string, string>> | null,
      by: RepairAudit,
    ): 'set' | 'unknown-key' => setTransaction.immediate(target, key, values, by),
    find(filter: { readonly target?: string; readonly key?: string; readonly limit: number }): StoredRepair[] {
      const rows = list.all({ target: filter.target ?? null, key: filter.key ?? null, limit: filter.limit });
      return rows.map((row) => ({ ...row, deliveryId: row.deliveryId === null ? null : `dlv_${row.deliveryId}` }));
    },
  };
}

export type SqliteRepairs = ReturnType<typeof createSqliteRepairs>;
