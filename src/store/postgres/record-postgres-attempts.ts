import type pg from 'pg';
import type { AttemptRecord } from '../store.js';
import { parseDeliveryId } from '../sqlite/parse-delivery-id.js';
import { referenceWrites } from './postgres-references.js';
import { bigintArrayLiteral } from './bigint-array-literal.js';
import { withValues, type WrittenValue } from './with-values.js';
import { commitInOneRoundTrip, withPostgresTransaction } from './with-postgres-transaction.js';

// With the BEGIN, in one round trip: the ids are written into it.
const lockDeliveries = (ids: readonly number[]) =>
  `SELECT id FROM deliveries WHERE id = ANY(${bigintArrayLiteral(ids)}) ORDER BY id FOR UPDATE`;

type Parsed = AttemptRecord & { rowId: number };

/**
 * Records finished attempts in one transaction: each delivery's new state and its attempt row, only where the
 * claim token still matches (a lease that expired and was claimed again is skipped). The deliveries are
 * locked first in id order (with the BEGIN), so two instances recording overlapping sets wait rather than
 * deadlock. Records go in as arrays; a delivery named twice goes in a later round, so it sees the first
 * record's effect, as one-by-one application would. A batch of one round with no references to write is the
 * whole transaction in one round trip; others take one per round, and one more for the references and the
 * COMMIT when the batch writes any.
 */
export async function recordPostgresAttempts(pool: pg.Pool, records: readonly AttemptRecord[]): Promise<number> {
  const parsed = records.flatMap((record): Parsed[] => {
    const rowId = parseDeliveryId(record.deliveryId);
    return rowId === undefined ? [] : [{ ...record, rowId }];
  });
  if (parsed.length === 0) return 0;
  const locks = lockDeliveries([...new Set(parsed.map((record) => record.rowId))]);
  const rounds = inRounds(parsed);
  const [only] = rounds;
  if (rounds.length === 1 && only !== undefined && only.every((record) => record.references === undefined)) {
    // The usual batch: no delivery named twice, none with references to write after it. Its BEGIN, locks,
    // record and COMMIT go in one round trip, so an answered attempt's record commits sooner (issue 11).
    const [, recorded] = await commitInOneRoundTrip(pool, `${locks}; ${recordText(only)}`);
    if (recorded?.rowCount == null) throw new Error('attempt record: no row count in the answer');
    return recorded.rowCount;
  }
  // Otherwise a round trip per round, the first with the BEGIN and locks. The references are written last,
  // with the COMMIT, in the batch's order: a repeated delivery's later record goes in a later round, but its
  // references must land where one-by-one records would put them, after the records before it in the batch.
  const writesReferences = parsed.some((record) => record.references !== undefined);
  return withPostgresTransaction(
    pool,
    async (client, [, first], commitWith) => {
      const applied = new Set<Parsed>();
      const mark = (round: readonly Parsed[], answer: pg.QueryResult | undefined) => {
        const ids = new Set((answer?.rows ?? []).map((row: { id: string | number }) => Number(row.id)));
        for (const record of round) if (ids.has(record.rowId)) applied.add(record);
      };
      mark(rounds[0] ?? [], first);
      for (const [index, round] of rounds.entries()) {
        if (index === 0) continue;
        // Without references to write, the last round's record goes with the COMMIT.
        const withCommit = index === rounds.length - 1 && !writesReferences;
        mark(round, await (withCommit ? commitWith(recordText(round)) : client.query(recordText(round))));
      }
      const writes = referenceWrites(parsed.filter((record) => applied.has(record)));
      if (writes.length > 0) await commitWith(writes.join('; '));
      return applied.size;
    },
    `${locks}; ${recordText(rounds[0] ?? [])}`,
  );
}

/** Splits records so that no round names a delivery twice, keeping their order. */
function inRounds(records: readonly Parsed[]): Parsed[][] {
  const result: Parsed[][] = [];
  const seen = new Map<number, number>();
  for (const record of records) {
    const round = seen.get(record.rowId) ?? 0;
    seen.set(record.rowId, round + 1);
    (result[round] ??= []).push(record);
  }
  return result;
}

// Never prepared (prepared.ts says why): a generic plan kept from an empty journal read every pending delivery per
// record. Its values are written in (with-values.ts), so it goes with other statements in one round trip.
const RECORD = `WITH input AS (
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[],
       $7::bigint[], $8::text[], $9::integer[], $10::text[], $11::integer[])
       AS i (id, token, state, next_attempt_at, last_error, started_at, duration_ms, outcome, status_code, detail,
         counted)
   ), finished AS (
     UPDATE deliveries AS d SET state = i.state, attempts = d.attempts + 1,
       schedule_attempts = d.schedule_attempts + i.counted, next_attempt_at = i.next_attempt_at,
       last_error = i.last_error, claim_token = NULL, updated_at = i.started_at + i.duration_ms
     FROM input AS i
     WHERE d.id = i.id AND d.claim_token = i.token AND d.state = 'pending'
     RETURNING d.id
   )
   INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome, status_code, detail)
   SELECT i.id, coalesce((SELECT max(a.number) FROM attempts AS a WHERE a.delivery_id = i.id), 0) + 1,
     i.started_at, i.duration_ms, i.outcome, i.status_code, i.detail
   FROM input AS i JOIN finished AS f ON f.id = i.id
   RETURNING delivery_id AS id`;

/** A round's RECORD with its values written in: planned per call, as an unnamed statement would be. */
const recordText = (records: readonly Parsed[]) => withValues(RECORD, recordValues(records));

/** RECORD's parameters, an array per column. */
function recordValues(records: readonly Parsed[]): WrittenValue[] {
  return [
    records.map((r) => r.rowId),
    records.map((r) => r.claimToken),
    records.map((r) => r.next.state),
    records.map((r) => r.next.nextAttemptAt),
    records.map((r) => r.next.lastError),
    records.map((r) => r.attempt.startedAt),
    records.map((r) => r.attempt.durationMs),
    records.map((r) => r.attempt.outcome),
    records.map((r) => r.attempt.statusCode),
    records.map((r) => r.attempt.detail),
    records.map((r) => (r.counted === false ? 0 : 1)),
  ];
}
