import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CircuitState } from '../../delivery/circuit-breaker.js';
import { circuitState, pacingAllowance } from '../../delivery/pacing/pacing-allowance.js';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import type { PacedClaimRequest } from '../shared-targets.js';
import { COUNT_IN_FLIGHT } from './count-in-flight.js';
import { leaseWithLimitWithValues, toLeased, type Leased } from './lease-postgres-due.js';
import { createTargetPacingStatement, lockTargetPacingStatement } from './lock-target-pacing.js';
import { withValues } from './with-values.js';
import { commitInOneRoundTrip } from './with-postgres-transaction.js';

/** What a paced claim decided, before its events are read. */
export interface PacedLease {
  readonly leased: Leased | undefined;
  readonly blockedUntil: number | undefined;
  readonly heldBack: boolean;
  /** PacedClaim.concurrencyTaken. */
  readonly concurrencyTaken: boolean;
  readonly circuit: CircuitState;
  readonly probeAt: number | undefined;
  readonly pausedUntil: number;
}

// pacingAllowance's answer where pacing spends nothing (a closed circuit, no pause, no rate limit): the
// concurrency left, counted once the lock before it is granted (a statement of its own, so READ COMMITTED gives
// it a snapshot taken then); 0 for any other state of the row. Kept in a setting local to the transaction for the
// lease to take as its limit, and returned, so that the claim learns it even when it leases nothing.
const ALLOWANCE = `SELECT set_config('switchyard.claim_allowance', COALESCE((
     SELECT GREATEST(0, LEAST($3, $4 - (${COUNT_IN_FLIGHT}))) FROM target_pacing
     WHERE target = $1 AND open_until IS NULL AND paused_until <= $2), 0)::text, true)::int AS n`;
const ALLOWED = `current_setting('switchyard.claim_allowance')::int`;

/**
 * A claim on a target without a rate limit, whole in one round trip: BEGIN, the pacing row created if missing,
 * its lock, the concurrency left, the lease with that as its limit, COMMIT. Such a claim writes nothing back to the
 * row, so it needs no answer before it commits, and the row is held only while the server runs the lease, not
 * while the answer travels to a busy daemon and the next statement back: claims of one target are serialised
 * across instances by that lock, so its hold bounds how fast they all claim (bench/README.md, "A claim in one
 * round trip"). The row must exist before the lock: a row committed by another instance after a lock that found
 * none would let the lease, whose snapshot is later, claim without the lock (a review found it).
 * Undefined when only the stepwise claim can decide: a half-open circuit that may send its probe (the probe is
 * written into the row); nothing was leased then.
 */
export async function claimInOneRoundTrip(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedLease | undefined> {
  const { target, now, policy } = request;
  if (policy.rateLimit !== null) return undefined;
  const claimToken = randomUUID();
  const allowance = withValues(ALLOWANCE, [target, now, request.limit, policy.concurrency]);
  const lease = leaseWithLimitWithValues(request, claimToken, ALLOWED);
  const [, locked, allowed, leased] = await commitInOneRoundTrip(
    pool,
    `${createTargetPacingStatement(target, policy, now)}; ${lockTargetPacingStatement(target)}; ${allowance}; ${lease}`,
  );
  const state = locked?.rows[0] as PacingState | undefined;
  // Created above, never deleted: without it, the allowance found no row either, and nothing was leased.
  if (state === undefined) throw new Error(`target_pacing row for ${target} vanished`);
  const limit = (allowed?.rows[0] as { n: number } | undefined)?.n ?? 0;
  const rows = leased?.rows ?? [];
  const seen = {
    circuit: circuitState(state, now),
    probeAt: state.openUntil ?? undefined,
    pausedUntil: state.pausedUntil,
  };
  if (rows.length === 0) {
    // Nothing leased: the concurrency taken or nothing due (blockedUntil undefined, as stepwise), or the row
    // says wait: a pause or an open circuit, whose answer does not depend on the attempts in flight.
    const { allowance: left, blockedUntil } = pacingAllowance(state, policy, now, 0);
    const spendsNothing = state.openUntil === null && now >= state.pausedUntil;
    if (!spendsNothing && left > 0) return undefined;
    return {
      leased: undefined,
      blockedUntil,
      heldBack: false,
      concurrencyTaken: spendsNothing && limit === 0,
      ...seen,
    };
  }
  const heldBack = limit < request.limit && rows.length === limit;
  const leasedRows = toLeased(claimToken, rows, false);
  return { leased: leasedRows, blockedUntil: undefined, heldBack, concurrencyTaken: false, ...seen };
}
