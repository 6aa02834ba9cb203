import pg from 'pg';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import { pacingAllowance } from '../../delivery/pacing/pacing-allowance.js';
import { spendPacing } from '../../delivery/pacing/spend-pacing.js';
import type { PacedClaim, PacedClaimRequest } from '../shared-targets.js';
import { attachClaimedEvents } from './attach-claimed-events.js';
import { leasePostgresDue } from './lease-postgres-due.js';
import { lockTargetPacing, lockTargetPacingStatement, saveTargetPacingStatement } from './lock-target-pacing.js';
import { prepared } from './prepared.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

const COUNT_IN_FLIGHT = `SELECT count(*)::int AS n FROM deliveries
   WHERE claim_token IS NOT NULL AND target = $1 AND state = 'pending' AND next_attempt_at > $2`;
const countInFlight = prepared('pacing_in_flight', COUNT_IN_FLIGHT);

/**
 * A claim under the target's shared pacing, in one transaction: lock the target's pacing row, count the
 * attempts in flight on every instance (claims whose lease has not ended), claim no more than the pacing allows,
 * spend it, commit; then read the claimed events. Claims of one target are serialised across instances by the
 * row lock, so the lock is held for as few round trips as can be: the lock and the count go with the BEGIN,
 * the pacing row's write-back with the COMMIT, and the lease runs between (issue 11: a claim in 4 round trips
 * from 6, the lock held over 2).
 */
export async function claimPostgresPaced(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedClaim> {
  const { target, now, policy } = request;
  const paced = await withPostgresTransaction(
    pool,
    async (client, [locked, counted]) => {
      const created = locked?.rows.length === 0;
      const state = await lockTargetPacing(
        client,
        target,
        policy,
        now,
        locked as pg.QueryResult<PacingState> | undefined,
      );
      // The count ran after the lock, with a snapshot of its own (READ COMMITTED): the other instances'
      // committed claims count. A row created just now was not locked when it ran: count again.
      const count = created || counted === undefined ? await client.query(countInFlight([target, now])) : counted;
      const inFlight = (count.rows[0] as { n: number } | undefined)?.n ?? 0;
      const { allowance, blockedUntil, circuit } = pacingAllowance(state, policy, now, inFlight);
      const seen = { circuit, probeAt: state.openUntil ?? undefined, pausedUntil: state.pausedUntil };
      const limit = Math.min(request.limit, allowance);
      if (limit < 1) return { leased: undefined, spent: undefined, blockedUntil, ...seen };
      const leased = await leasePostgresDue(client, { ...request, limit }, false);
      const started = leased.rows.length;
      const spent =
        started > 0
          ? spendPacing(state, policy, now, { started, leaseEnd: now + request.leaseMs, claimToken: leased.claimToken })
          : undefined;
      return { leased, spent, blockedUntil: started < request.limit ? blockedUntil : undefined, ...seen };
    },
    {
      opening: [lockTargetPacingStatement(target), countInFlightStatement(target, now)],
      closing: ({ spent }) => (spent === undefined ? undefined : saveTargetPacingStatement(target, spent)),
    },
  );
  // The events and the references (keyed deliveries only) are read after the commit, without the row lock.
  const claims = paced.leased === undefined ? [] : await attachClaimedEvents(pool, paced.leased);
  const { circuit, probeAt, pausedUntil } = paced;
  return { claims, blockedUntil: paced.blockedUntil, circuit, probeAt, pausedUntil };
}

/** The count with its values written in, to go with the BEGIN and the lock in one round trip. */
function countInFlightStatement(target: string, now: number): string {
  if (!Number.isSafeInteger(now)) throw new RangeError(`not an integer: ${now}`);
  // Functions as replacements: a `$` in the target's literal is left as it is, and `$2` is replaced first.
  return COUNT_IN_FLIGHT.replace('$2', () => String(now)).replace('$1', () => pg.escapeLiteral(target));
}
