/**
 * A target's attempts in flight on every instance: claims whose lease has not ended ($1 the target, $2 now).
 * Planned anew per call (prepared.ts says why): a generic plan kept from an empty journal read every later-due
 * delivery. It must run after the pacing row's lock is granted, as a statement of its own (READ COMMITTED takes
 * a snapshot per statement), so that it counts the claims other instances committed while this one waited.
 */
export const COUNT_IN_FLIGHT = `SELECT count(*)::int AS n FROM deliveries
   WHERE claim_token IS NOT NULL AND target = $1 AND state = 'pending' AND next_attempt_at > $2`;
