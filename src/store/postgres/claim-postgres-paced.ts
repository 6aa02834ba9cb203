import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import { pacingAllowance } from '../../delivery/pacing/pacing-allowance.js';
import { spendPacing } from '../../delivery/pacing/spend-pacing.js';
import type { PacedClaim, PacedClaimRequest } from '../shared-targets.js';
import { attachClaimedEvents } from './attach-claimed-events.js';
import { leasePostgresDue, leaseStatementWithValues, toLeased, type Leased } from './lease-postgres-due.js';
import { lockTargetPacing, lockTargetPacingStatement, saveTargetPacing } from './lock-target-pacing.js';
import { withValues } from './with-values.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

// Planned anew per call (prepared.ts says why): a generic plan kept from an empty journal read every later-due
// delivery. Sent with the BEGIN and the pacing row's lock, in one round trip, so it runs as soon as the lock is
// granted, with a fresh snapshot (READ COMMITTED takes one per statement): other instances' committed claims count.
const COUNT_IN_FLIGHT = `SELECT count(*)::int AS n FROM deliveries
   WHERE claim_token IS NOT NULL AND target = $1 AND state = 'pending' AND next_attempt_at > $2`;

/**
 * A claim under the target's shared pacing, in one transaction: lock the target's pacing row and count the
 * attempts in flight on every instance (claims whose lease has not ended), claim no more than the pacing allows,
 * spend it, commit; then read the claimed events. Claims of one target are serialised across instances by the
 * row lock, so the claim holds it as briefly as it can: without a rate limit or a half-open probe a claim spends
 * nothing, and its lease goes with the COMMIT (3 round trips in all, the lock held for one after it is granted);
 * otherwise the lease, the spent pacing written back, then the COMMIT.
 */
export async function claimPostgresPaced(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedClaim> {
  const { target, now, policy } = request;
  const paced = await withPostgresTransaction(
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
  // The references (keyed deliveries only) are read after the commit, not under the row lock.
  const claims = paced.leased === undefined ? [] : await attachClaimedEvents(pool, paced.leased);
  const { circuit, probeAt, pausedUntil } = paced;
  return { claims, blockedUntil: paced.blockedUntil, heldBack: paced.heldBack, circuit, probeAt, pausedUntil };
}
