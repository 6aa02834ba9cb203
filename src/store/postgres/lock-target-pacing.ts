import type pg from 'pg';
import { initialPacingState, type PacingPolicy, type PacingState } from '../../delivery/pacing/pacing-state.js';
import { prepared } from './prepared.js';
import { withValues } from './with-values.js';

const LOCK_ROW = `SELECT tokens, refilled_at AS "refilledAt", failures, last_failure_at AS "lastFailureAt",
     open_until AS "openUntil",
     probe_until AS "probeUntil", probe_token AS "probeToken", paused_until AS "pausedUntil"
   FROM target_pacing WHERE target = $1 FOR UPDATE`;
const lockRow = prepared('pacing_lock', LOCK_ROW);

/** The lock with the target written in (escaped), to go with the BEGIN in one round trip (a claim's). */
export const lockTargetPacingStatement = (target: string): string => withValues(LOCK_ROW, [target]);
const CREATE_ROW =
  'INSERT INTO target_pacing (target, tokens, refilled_at) VALUES ($1, $2, $3) ON CONFLICT (target) DO NOTHING';
/**
 * The target's row created if it is missing, values written in: before the lock in the same string, so that the
 * lock always finds a row (it waits for another instance's insert that has not committed yet).
 */
export const createTargetPacingStatement = (target: string, policy: PacingPolicy, now: number): string => {
  const initial = initialPacingState(policy, now);
  return withValues(CREATE_ROW, [target, initial.tokens, initial.refilledAt]);
};
const saveRow = prepared(
  'pacing_save',
  `UPDATE target_pacing SET tokens = $2, refilled_at = $3, failures = $4, open_until = $5, probe_until = $6,
     paused_until = $7, probe_token = $8, last_failure_at = $9 WHERE target = $1`,
);

/**
 * Reads a target's pacing row FOR UPDATE inside the caller's transaction, creating it first if the target is
 * new: every instance then waits for the others' claim or report on that target and sees its result.
 * `locked`: the result of lockTargetPacingStatement, when the caller sent it with its BEGIN.
 */
export async function lockTargetPacing(
  client: pg.PoolClient,
  target: string,
  policy: PacingPolicy,
  now: number,
  locked?: pg.QueryResult<PacingState>,
): Promise<PacingState> {
  const select = () => client.query<PacingState>(lockRow([target]));
  let row = (locked ?? (await select())).rows[0];
  if (row === undefined) {
    // First claim of this target anywhere: create the row (another instance may do so at the same moment).
    const initial = initialPacingState(policy, now);
    await client.query(CREATE_ROW, [target, initial.tokens, initial.refilledAt]);
    row = (await select()).rows[0];
  }
  if (row === undefined) throw new Error(`target_pacing row for ${target} vanished`);
  return row;
}

/** Writes the row back (the caller holds its lock). */
export async function saveTargetPacing(client: pg.PoolClient, target: string, state: PacingState): Promise<void> {
  await client.query(
    saveRow([
      target,
      state.tokens,
      state.refilledAt,
      state.failures,
      state.openUntil,
      state.probeUntil,
      state.pausedUntil,
      state.probeToken,
      state.lastFailureAt,
    ]),
  );
}
