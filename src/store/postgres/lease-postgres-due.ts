import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { inLine } from '../key-order-sql.js';
import { unnamed } from './prepared.js';
import { withValues } from './with-values.js';
import type { ClaimRequest, StoredDelivery, StoredEvent } from '../store.js';

export type LeasedRow = StoredDelivery & {
  rowId: number;
  retryFrom: number;
  scheduleAttempts: number;
  generation: number;
  suppressedCount: number;
  /** The delivery's event, when read by the same statement (events never change once stored). */
  event: StoredEvent | undefined;
};

type Returned = Omit<LeasedRow, 'event'> & {
  eSource: string;
  eKind: string;
  eSeverity: string | null;
  eOccurredAt: string;
  eReceivedAt: number;
  eBodySha256: string;
  eRulesVersion: string;
  eMatchedRoutes: string[];
  eBody: Buffer;
};

const EVENT_COLUMNS = `,
     e.source AS "eSource", e.kind AS "eKind", e.severity AS "eSeverity", e.occurred_at AS "eOccurredAt",
     e.received_at AS "eReceivedAt", encode(e.body_sha256, 'hex') AS "eBodySha256",
     e.rules_version AS "eRulesVersion", e.matched_routes AS "eMatchedRoutes", e.body AS "eBody"`;
/**
 * `allowance`: a query of one row and one column, `n`, that the lease takes as its limit instead of `$3` (none:
 * no row, so 0), and returns as `allowed` on every leased row; a claim's limit worked out by the server.
 */
const leaseSql = (
  withEvents: boolean,
  allowance?: string,
) => `WITH ${allowance === undefined ? '' : `allowed AS MATERIALIZED (${allowance}), `}due AS (
     SELECT id, next_attempt_at, updated_at FROM deliveries
     WHERE state = 'pending' AND target = $1 AND next_attempt_at <= $2 AND ${inLine('deliveries', '$2')}
     ORDER BY next_attempt_at, id LIMIT ${allowance === undefined ? '$3' : 'COALESCE((SELECT n FROM allowed), 0)'}
     FOR UPDATE SKIP LOCKED
   )
   UPDATE deliveries AS d SET claim_token = $4, next_attempt_at = $5, updated_at = $2
   FROM due${withEvents ? ', events AS e' : ''}
   WHERE d.id = due.id AND d.id = ANY (ARRAY(SELECT id FROM due))${withEvents ? ' AND e.id = d.event_id' : ''}
   RETURNING 'dlv_' || d.id AS id, d.event_id AS "eventId", d.target, d.state, d.attempts,
     due.next_attempt_at AS "nextAttemptAt", d.last_error AS "lastError", d.created_at AS "createdAt",
     due.updated_at AS "updatedAt", d.id AS "rowId", d.retry_from AS "retryFrom",
     d.schedule_attempts AS "scheduleAttempts", d.replay_generation AS "generation", d.suppressed_count AS "suppressedCount",
     d.correlation_key AS "correlationKey"${withEvents ? EVENT_COLUMNS : ''}${allowance === undefined ? '' : ', (SELECT n FROM allowed) AS "allowed"'}`;
// Unnamed (prepared.ts says why): a generic plan kept from an empty journal scanned `deliveries` per claim.
const leaseWithEvents = unnamed(leaseSql(true));
const leaseOnly = unnamed(leaseSql(false));
const leaseValues = (request: ClaimRequest, claimToken: string) => [
  request.target,
  request.now,
  request.limit,
  claimToken,
  request.now + request.leaseMs,
];

/**
 * The lease without its events, values written in: a paced claim sends it with its COMMIT, in one round trip
 * (planned anew per call, as the unnamed one is). `toLeased` reads what it returned.
 */
export const leaseStatementWithValues = (request: ClaimRequest, claimToken: string): string =>
  withValues(leaseSql(false), leaseValues(request, claimToken));

/**
 * The same with its limit worked out by the server at the moment it runs: `allowance` may read `$1` (target),
 * `$2` (now), `$3` (the claim's own limit) and `$6` (`extra`).
 */
export const allowedLeaseWithValues = (
  request: ClaimRequest,
  claimToken: string,
  allowance: string,
  extra: number,
): string => withValues(leaseSql(false, allowance), [...leaseValues(request, claimToken), extra]);

export interface Leased {
  readonly claimToken: string;
  readonly rows: readonly LeasedRow[];
}

/**
 * Takes up to `limit` due deliveries of one target and leases them, in one statement. FOR UPDATE SKIP LOCKED
 * lets instances claim side by side: rows another instance is claiming are passed over, not waited for, and
 * a row claimed and committed meanwhile fails the re-check of `next_attempt_at <= now` and is passed over too.
 * https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE
 * The delivery is returned as it was before the claim (its due time, not the lease's end), as in SQLite; with
 * `withEvents`, its event too (no second round trip; a paced claim reads them after its commit instead).
 * `d.id = ANY (ARRAY(...))` repeats the join as an index condition: without it the planner joined by hashing
 * or scanning the whole deliveries table, a cost per claim that grew with the journal (EXPLAIN at 10,000 rows:
 * a sequential scan of all of them for a claim of 64).
 * Order per key (issue 14, key-order-sql.ts): only the first delivery of a key's line is a candidate, so two
 * claims at once can only race for the same row, which the row lock settles; a later one sees it claimed.
 */
export async function leasePostgresDue(
  client: pg.Pool | pg.PoolClient,
  request: ClaimRequest,
  withEvents = true,
): Promise<Leased> {
  const claimToken = randomUUID();
  const claimed = await client.query<Returned>(
    (withEvents ? leaseWithEvents : leaseOnly)(leaseValues(request, claimToken)),
  );
  return toLeased(claimToken, claimed.rows, withEvents);
}

/** The leased rows as a claim hands them on, with their events when the lease read them. */
export function toLeased(claimToken: string, returned: readonly unknown[], withEvents: boolean): Leased {
  const rows = (returned as readonly Returned[]).map(
    ({
      eSource,
      eKind,
      eSeverity,
      eOccurredAt,
      eReceivedAt,
      eBodySha256,
      eRulesVersion,
      eMatchedRoutes,
      eBody,
      ...row
    }) => ({
      ...row,
      event: !withEvents
        ? undefined
        : {
            id: row.eventId,
            source: eSource,
            kind: eKind,
            severity: eSeverity,
            occurredAt: eOccurredAt,
            receivedAt: eReceivedAt,
            bodySha256: eBodySha256,
            rulesVersion: eRulesVersion,
            matchedRoutes: eMatchedRoutes,
            body: eBody,
          },
    }),
  );
  return { claimToken, rows };
}
