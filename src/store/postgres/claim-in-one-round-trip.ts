import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CircuitState } from '../../delivery/circuit-breaker.js';
import { circuitState, pacingAllowance } from '../../delivery/pacing/pacing-allowance.js';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import type { PacedClaimRequest } from '../shared-targets.js';
import { COUNT_IN_FLIGHT } from './count-in-flight.js';
import { allowedLeaseWithValues, toLeased, type Leased } from './lease-postgres-due.js';
import { createTargetPacingStatement, lockTargetPacingStatement } from './lock-target-pacing.js';
import { commitInOneRoundTrip } from './with-postgres-transaction.js';

/** What a paced claim decided, before its events are read. */
export interface PacedLease {
  readonly leased: Leased | undefined;
  readonly blockedUntil: number | undefined;
  readonly heldBack: boolean;
  readonly circuit: CircuitState;
  readonly probeAt: number | undefined;
  readonly pausedUntil: number;
}

// pacingAllowance's answer where pacing spends nothing (a closed circuit, no pause, no rate limit): the
// concurrency left, counted in the lease's own snapshot, taken once the lock before it was granted. Any other
// state of the row allows none here; the caller then reads the row.
const ALLOWANCE = `SELECT GREATEST(0, LEAST($3, $6 - (${COUNT_IN_FLIGHT})))::int AS n FROM target_pacing
   WHERE target = $1 AND open_until IS NULL AND paused_until <= $2`;

/**
 * A claim on a target without a rate limit, whole in one round trip: BEGIN, the pacing row created if missing,
 * its lock, the lease with the concurrency left as its limit, COMMIT. Such a claim writes nothing back to the
 * row, so it needs no answer before it commits, and the row is held only while the server runs the lease, not
 * while the answer travels to a busy daemon and the next statement back: claims of one target are serialised
 * across instances by that lock, so its hold bounds how fast they all claim (docs/decisions/
 * postgres-claim-in-one-round-trip.md). The row must exist before the lock: a row committed by another instance after a lock that found
 * none would let the lease, whose snapshot is later, claim without the lock (a review found it).
 * Undefined when only the stepwise claim can decide: a half-open circuit that may send its probe (the probe is
 * written into the row); nothing was leased then.
 */
export async function claimInOneRoundTrip(pool: pg.Pool, request: PacedClaimRequest): Promise<PacedLease | undefined> {
  const { target, now, policy } = request;
  if (policy.rateLimit !== null) return undefined;
  const claimToken = randomUUID();
  const lease = allowedLeaseWithValues(request, claimToken, ALLOWANCE, policy.concurrency);
  const [, locked, leased] = await commitInOneRoundTrip(
    pool,
    `${createTargetPacingStatement(target, policy, now)}; ${lockTargetPacingStatement(target)}; ${lease}`,
  );
  const state = locked?.rows[0] as PacingState | undefined;
  const rows = (leased?.rows ?? []) as readonly { readonly allowed: number }[];
  // Created above, never deleted: without it, the ALLOWANCE found no row either, and nothing was leased.
  if (state === undefined) throw new Error(`target_pacing row for ${target} vanished`);
  const seen = {
    circuit: circuitState(state, now),
    probeAt: state.openUntil ?? undefined,
    pausedUntil: state.pausedUntil,
  };
  const allowed = rows[0]?.allowed;
  if (allowed === undefined) {
    // Nothing leased: the concurrency taken or nothing due (blockedUntil undefined, as stepwise), or the row
    // says wait: a pause or an open circuit, whose answer does not depend on the attempts in flight.
    const { allowance, blockedUntil } = pacingAllowance(state, policy, now, 0);
    const spendsNothing = state.openUntil === null && now >= state.pausedUntil;
    if (!spendsNothing && allowance > 0) return undefined;
    return { leased: undefined, blockedUntil, heldBack: false, ...seen };
  }
  const returned = rows.map(({ allowed: _allowed, ...row }) => row);
  const heldBack = allowed < request.limit && rows.length === allowed;
  return { leased: toLeased(claimToken, returned, false), blockedUntil: undefined, heldBack, ...seen };
}
