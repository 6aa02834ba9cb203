import type pg from 'pg';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import { pacingAllowance } from '../../delivery/pacing/pacing-allowance.js';
import { spendPacing } from '../../delivery/pacing/spend-pacing.js';
import type { PacedClaim, PacedClaimRequest } from '../shared-targets.js';
import { attachClaimedEvents } from './attach-claimed-events.js';
import { leasePostgresDue } from './lease-postgres-due.js';
import { lockTargetPacing, lockTargetPacingStatement, saveTargetPacing } from './lock-target-pacing.js';
import { unnamed } from './prepared.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

// Unnamed (prepared.ts says why): a generic plan kept from an empty journal read every later-due delivery.
const countInFlight = unnamed(
  `SELECT count(*)::int AS n FROM deliveries
   WHERE claim_token IS NOT NULL AND target = $1 AND state = 'pending' AND next_attempt_at > $2`,
);

/**
 * A claim under the target's shared pacing, in one transaction: lock the target's pacing row, count the
 * attempts in flight on every instance (claims whose lease has not ended), claim no more than the pacing allows,
 * spend it, commit; then read the claimed events. Claims of one target are serialised across instances by the row lock; claims are batched,
 * so that costs one short transaction per target per pass.
 */
export async function claimPostgresPaced(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedClaim> {
  const { target, now, policy } = request;
  const paced = await withPostgresTransaction(
    pool,
    async (client, locked) => {
      const state = await lockTargetPacing(
        client,
        target,
        policy,
        now,
        locked as pg.QueryResult<PacingState> | undefined,
      );
      // A fresh snapshot (READ COMMITTED, statement after the lock): the other instances' committed claims count.
      const counted = await client.query<{ n: number }>(countInFlight([target, now]));
      const inFlight = counted.rows[0]?.n ?? 0;
      const { allowance, blockedUntil, circuit } = pacingAllowance(state, policy, now, inFlight);
      const seen = { circuit, probeAt: state.openUntil ?? undefined, pausedUntil: state.pausedUntil };
      const limit = Math.min(request.limit, allowance);
      if (limit < 1) return { leased: undefined, blockedUntil, ...seen };
      const leased = await leasePostgresDue(client, { ...request, limit }, false);
      const started = leased.rows.length;
      if (started > 0)
        await saveTargetPacing(
          client,
          target,
          spendPacing(state, policy, now, { started, leaseEnd: now + request.leaseMs, claimToken: leased.claimToken }),
        );
      return { leased, blockedUntil: started < request.limit ? blockedUntil : undefined, ...seen };
    },
    // The lock goes with the BEGIN, in one round trip.
    lockTargetPacingStatement(target),
  );
  // The references (keyed deliveries only) are read after the commit: the row lock is held for four statements.
  const claims = paced.leased === undefined ? [] : await attachClaimedEvents(pool, paced.leased);
  const { circuit, probeAt, pausedUntil } = paced;
  return { claims, blockedUntil: paced.blockedUntil, circuit, probeAt, pausedUntil };
}
