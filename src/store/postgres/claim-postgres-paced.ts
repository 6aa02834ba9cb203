import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import { pacingAllowance } from '../../delivery/pacing/pacing-allowance.js';
import { spendPacing } from '../../delivery/pacing/spend-pacing.js';
import type { PacedClaim, PacedClaimRequest } from '../shared-targets.js';
import { attachClaimedEvents } from './attach-claimed-events.js';
import { claimInOneRoundTrip, type PacedLease } from './claim-in-one-round-trip.js';
import { COUNT_IN_FLIGHT } from './count-in-flight.js';
import { leasePostgresDue, leaseStatementWithValues, toLeased, type Leased } from './lease-postgres-due.js';
import { lockTargetPacing, lockTargetPacingStatement, saveTargetPacing } from './lock-target-pacing.js';
import { withValues } from './with-values.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

/**
 * A claim under the target's shared pacing, in one transaction, then its events read. A target without a rate
 * limit whose circuit is closed is claimed in one round trip (claim-in-one-round-trip.ts); otherwise stepwise.
 */
export async function claimPostgresPaced(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedClaim> {
  const paced = (await claimInOneRoundTrip(pool, request)) ?? (await claimStepwise(pool, request));
  // The references (keyed deliveries only) are read after the commit, not under the row lock.
  const claims = paced.leased === undefined ? [] : await attachClaimedEvents(pool, paced.leased);
  const { circuit, probeAt, pausedUntil } = paced;
  return { claims, blockedUntil: paced.blockedUntil, heldBack: paced.heldBack, circuit, probeAt, pausedUntil };
}

/**
 * Lock the target's pacing row and count the attempts in flight on every instance (claims whose lease has not
 * ended), claim no more than the pacing allows, spend it, commit. Claims of one target are serialised across
 * instances by the row lock, so the claim holds it as briefly as it can: a claim that spends nothing sends its
 * lease with the COMMIT (the lock held for one round trip after it is granted); one that spends (tokens, a
 * half-open probe) sends the lease, the spent pacing written back, then the COMMIT.
 */
async function claimStepwise(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedLease> {
  const { target, now, policy } = request;
  return withPostgresTransaction(
    pool,
    async (client, [locked, counted], commitWith) => {
      const existed = locked !== undefined && locked.rows.length > 0;
      const state = await lockTargetPacing(client, target, policy, now, locked as pg.QueryResult<PacingState>);
      // The target's first claim anywhere counted before its row existed, so before holding the lock: again.
      const count = existed ? counted : await client.query(COUNT_IN_FLIGHT, [target, now]);
      const inFlight = (count as pg.QueryResult<{ n: number }> | undefined)?.rows[0]?.n ?? 0;
      const { allowance, blockedUntil, circuit } = pacingAllowance(state, policy, now, inFlight);
      const seen = { circuit, probeAt: state.openUntil ?? undefined, pausedUntil: state.pausedUntil };
      const limit = Math.min(request.limit, allowance);
      if (limit < 1) return { leased: undefined, blockedUntil, heldBack: false, ...seen };
      const lease = { ...request, limit };
      const spend = (started: number, claimToken: string) =>
        spendPacing(state, policy, now, { started, leaseEnd: now + request.leaseMs, claimToken });
      const claimToken = randomUUID();
      let leased: Leased;
      if (JSON.stringify(spend(1, claimToken)) === JSON.stringify(state)) {
        const result = await commitWith(leaseStatementWithValues(lease, claimToken));
        leased = toLeased(claimToken, result.rows, false);
      } else {
        leased = await leasePostgresDue(client, lease, false);
        const started = leased.rows.length;
        if (started > 0) await saveTargetPacing(client, target, spend(started, leased.claimToken));
      }
      const started = leased.rows.length;
      return {
        leased,
        blockedUntil: started < request.limit ? blockedUntil : undefined,
        // Cut short by the pacing (attempts in flight on other instances, tokens), not by the backlog.
        heldBack: blockedUntil === undefined && limit < request.limit && started === limit,
        ...seen,
      };
    },
    `${lockTargetPacingStatement(target)}; ${withValues(COUNT_IN_FLIGHT, [target, now])}`,
  );
}
