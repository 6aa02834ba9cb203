import { describe, expect, it } from 'vitest';
import { applyVerdict } from '../../../src/delivery/pacing/apply-verdict.js';
import { pacingAllowance } from '../../../src/delivery/pacing/pacing-allowance.js';
import { initialPacingState, type PacingPolicy, type PacingState } from '../../../src/delivery/pacing/pacing-state.js';
import { spendPacing } from '../../../src/delivery/pacing/spend-pacing.js';

const policy: PacingPolicy = {
  rateLimit: { perSecond: 2, burst: 3 },
  concurrency: 4,
  circuit: { failures: 3, cooldownMs: 10_000 },
  maxDelayMs: 60_000,
};
const T = 1_000_000;
const fresh = initialPacingState(policy, T);
const verdict = (
  kind: 'delivered' | 'retry' | 'permanent' | 'rate-limited',
  at: number,
  retryAfterMs?: number,
  claimToken = 'claim-other',
) => ({ target: 't', kind, at, retryAfterMs, policy, claimToken });
/** Starts `started` attempts under claim `token` (the probe, on a half-open circuit). */
const spend = (state: PacingState, now: number, started: number, leaseEnd: number, token = 'claim-probe') =>
  spendPacing(state, policy, now, { started, leaseEnd, claimToken: token });

describe('shared pacing: allowance and spending', () => {
  it('starts with a full bucket, bounded by concurrency minus what any instance has in flight', () => {
    expect(pacingAllowance(fresh, policy, T, 0)).toEqual({ allowance: 3, blockedUntil: undefined, circuit: 'closed' });
    expect(pacingAllowance(fresh, policy, T, 2).allowance).toBe(2);
    expect(pacingAllowance(fresh, policy, T, 4).allowance).toBe(0);
  });

  it('spends tokens and refills them at the configured rate, never above the burst', () => {
    const spent = spend(fresh, T, 3, T + 60_000);
    expect(pacingAllowance(spent, policy, T, 0)).toEqual({ allowance: 0, blockedUntil: T + 500, circuit: 'closed' });
    expect(pacingAllowance(spent, policy, T + 500, 0).allowance).toBe(1);
    expect(pacingAllowance(spent, policy, T + 60_000, 0).allowance).toBe(3);
  });

  it('without a rate limit only concurrency counts', () => {
    const open: PacingPolicy = { ...policy, rateLimit: null };
    const state = spendPacing(initialPacingState(open, T), open, T, { started: 50, leaseEnd: T + 1, claimToken: 'c' });
    expect(pacingAllowance(state, open, T, 1).allowance).toBe(3);
  });
});

describe('shared pacing: circuit and Retry-After', () => {
  it('opens after `failures` consecutive failures from any instance, and a success in between resets the count', () => {
    let state = [verdict('retry', T), verdict('retry', T), verdict('delivered', T), verdict('retry', T)].reduce(
      applyVerdict,
      fresh,
    );
    expect(pacingAllowance(state, policy, T, 0).circuit).toBe('closed');
    state = [verdict('retry', T + 1), verdict('retry', T + 2)].reduce(applyVerdict, state);
    expect(pacingAllowance(state, policy, T + 2, 0)).toEqual({
      allowance: 0,
      blockedUntil: T + 10_002,
      circuit: 'open',
    });
  });

  it('lets exactly one probe through when half-open; its failure re-opens, its success closes', () => {
    const opened = [1, 2, 3].map(() => verdict('retry', T)).reduce(applyVerdict, fresh);
    const halfOpen = T + 10_000;
    expect(pacingAllowance(opened, policy, halfOpen, 0)).toMatchObject({ allowance: 1, circuit: 'half-open' });
    const probing = spend(opened, halfOpen, 1, halfOpen + 5_000);
    expect(pacingAllowance(probing, policy, halfOpen + 1, 0)).toMatchObject({ allowance: 0, circuit: 'half-open' });
    // A probe whose instance died stops holding the circuit when its lease ends.
    expect(pacingAllowance(probing, policy, halfOpen + 5_000, 0).allowance).toBe(1);

    const reopened = applyVerdict(probing, verdict('retry', halfOpen + 100, undefined, 'claim-probe'));
    expect(pacingAllowance(reopened, policy, halfOpen + 200, 0)).toMatchObject({ circuit: 'open' });
    const closed = applyVerdict(probing, verdict('delivered', halfOpen + 100, undefined, 'claim-probe'));
    expect(pacingAllowance(closed, policy, halfOpen + 200, 0)).toMatchObject({ circuit: 'closed', allowance: 2 }); // the probe spent a token;
  });

  it('a permanent answer ends a probe without closing or counting', () => {
    const opened = [1, 2, 3].map(() => verdict('retry', T)).reduce(applyVerdict, fresh);
    const probing = spend(opened, T + 10_000, 1, T + 20_000);
    const after = applyVerdict(probing, verdict('permanent', T + 10_001, undefined, 'claim-probe'));
    expect(after).toMatchObject({ probeUntil: null, probeToken: null, failures: 3, openUntil: T + 10_000 });
  });

  it("only the probe's own verdict ends the probe: a late answer from before it does not let a second one out", async () => {
    const opened = [1, 2, 3].map(() => verdict('retry', T)).reduce(applyVerdict, fresh);
    const probing = spend(opened, T + 10_000, 1, T + 20_000);
    const late = applyVerdict(probing, verdict('permanent', T + 10_001)); // e.g. cut short by a shutdown
    expect(pacingAllowance(late, policy, T + 10_002, 0)).toMatchObject({ allowance: 0, circuit: 'half-open' });
    // A late failure counts, but the probe stays the one in flight; a late success still closes the circuit.
    expect(applyVerdict(probing, verdict('retry', T + 10_001))).toMatchObject({ probeToken: 'claim-probe' });
    expect(applyVerdict(probing, verdict('delivered', T + 10_001))).toMatchObject({
      openUntil: null,
      probeToken: null,
    });
  });

  it('a success answered before the failures that opened the circuit leaves it open, though written after them', () => {
    // Instances write their verdicts in no common order: another instance's later failures may land first.
    const opened = [1, 2, 3].map(() => verdict('retry', T + 5)).reduce(applyVerdict, fresh);
    expect(applyVerdict(opened, verdict('delivered', T + 4))).toEqual(opened);
    expect(pacingAllowance(applyVerdict(opened, verdict('delivered', T + 4)), policy, T + 6, 0).circuit).toBe('open');
    // Answered as it opened, or after: the target is up, the circuit closes.
    expect(applyVerdict(opened, verdict('delivered', T + 5))).toMatchObject({ failures: 0, openUntil: null });
  });

  it('a failure written late neither shortens the cool-down nor lets an older success close the circuit', () => {
    // Written: another instance's three failures (answered at T+18..20, they open the circuit), then this
    // instance's group, answered before them: a success at T+15, a failure at T+16, a success at T+17.
    const opened = [18, 19, 20].map((ms) => verdict('retry', T + ms)).reduce(applyVerdict, fresh);
    const after = [15, 16, 17]
      .map((ms) => verdict(ms === 16 ? 'retry' : 'delivered', T + ms))
      .reduce(applyVerdict, opened);
    expect(after).toMatchObject({ failures: 4, openUntil: T + 10_020 });
    expect(pacingAllowance(after, policy, T + 10_019, 0).circuit).toBe('open');
  });

  it('a success answered before failures written first leaves their count, so the circuit opens on time', () => {
    // Another instance's two failures (answered at T+5, T+6) land first; this instance's success, answered at T+4,
    // is older news: counting it as a reset let a third failure leave the circuit closed.
    const failing = [5, 6].map((ms) => verdict('retry', T + ms)).reduce(applyVerdict, fresh);
    const afterLate = applyVerdict(failing, verdict('delivered', T + 4));
    expect(afterLate).toEqual(failing);
    expect(applyVerdict(afterLate, verdict('retry', T + 7))).toMatchObject({ failures: 3, openUntil: T + 10_007 });
    // Answered after the newest failure, a success resets the count as before.
    expect(applyVerdict(failing, verdict('delivered', T + 6))).toMatchObject({ failures: 0, lastFailureAt: T + 6 });
  });

  it('a cool-down lengthened by a rules reload does not let a success older than the opening close the circuit', () => {
    const opened = [1, 2, 3].map((ms) => verdict('retry', T + ms)).reduce(applyVerdict, fresh); // cool-down 10 s
    const reloaded = { ...policy, circuit: { failures: 3, cooldownMs: 60_000 } };
    const late = { ...verdict('delivered', T + 2), policy: reloaded };
    expect(applyVerdict(opened, late)).toEqual(opened);
  });

  it('a row from before the failure time was kept falls back to the opening: open until less the cool-down', () => {
    const opened = { ...[1, 2, 3].map(() => verdict('retry', T + 5)).reduce(applyVerdict, fresh), lastFailureAt: null };
    expect(applyVerdict(opened, verdict('delivered', T + 4))).toEqual(opened);
    expect(applyVerdict(opened, verdict('delivered', T + 5))).toMatchObject({ failures: 0, openUntil: null });
    const failing = { ...applyVerdict(fresh, verdict('retry', T + 5)), lastFailureAt: null };
    expect(applyVerdict(failing, verdict('delivered', T + 4))).toMatchObject({ failures: 0 });
    // A late failure, answered before the opening, gives the row a failure time older than the opening: the
    // opening still counts.
    const late = applyVerdict(opened, verdict('retry', T + 1));
    expect(late.lastFailureAt).toBe(T + 1);
    expect(applyVerdict(late, verdict('delivered', T + 3))).toEqual(late);
  });

  it('a circuit an older instance opened (rolling upgrade: no failure time written) stays open for an older success', () => {
    // Yesterday's failure time, then failures counted by an instance that does not write it, opening at T+7.
    const reset = [verdict('retry', T - 86_400_000), verdict('delivered', T - 86_399_000)].reduce(applyVerdict, fresh);
    const byOlder: PacingState = { ...reset, failures: 3, openUntil: T + 10_007 };
    expect(applyVerdict(byOlder, verdict('delivered', T + 4))).toEqual(byOlder);
  });

  it('a failure stamped far ahead (a clock out of step) holds back successes for at most a minute', () => {
    const HOUR = 3_600_000;
    // One instance's clock an hour ahead: its failure must not pin the count for the hour.
    const ahead = applyVerdict(fresh, verdict('retry', T + HOUR));
    expect(applyVerdict(ahead, verdict('delivered', T + 60_000))).toMatchObject({ failures: 0 });
    // Opened by in-step failures after it: a probe's success closes the circuit.
    const opened = [1, 2].map((ms) => verdict('retry', T + ms)).reduce(applyVerdict, ahead);
    const probing = spend(opened, T + 10_002, 1, T + 20_000);
    const closed = applyVerdict(probing, verdict('delivered', T + 10_100, undefined, 'claim-probe'));
    expect(pacingAllowance(closed, policy, T + 10_200, 0).circuit).toBe('closed');
    // A failure less than a minute ahead is a reordering: the success is older news.
    const soon = applyVerdict(fresh, verdict('retry', T + 60_000));
    expect(applyVerdict(soon, verdict('delivered', T))).toEqual(soon);
  });

  it('pauses the whole target for Retry-After, capped at max_delay, and never shortens a pause', () => {
    const paused = applyVerdict(fresh, verdict('retry', T, 5_000));
    expect(pacingAllowance(paused, policy, T + 1, 0)).toEqual({
      allowance: 0,
      blockedUntil: T + 5_000,
      circuit: 'closed',
    });
    expect(applyVerdict(paused, verdict('retry', T + 1, 1_000)).pausedUntil).toBe(T + 5_000);
    expect(applyVerdict(fresh, verdict('retry', T, 3_600_000)).pausedUntil).toBe(T + 60_000);
  });
});

describe('shared pacing: 429', () => {
  it('pauses the target for the given delay (capped at max_delay) without counting a failure, and ends a probe', () => {
    let state = applyVerdict(fresh, verdict('retry', T, undefined));
    state = applyVerdict(state, verdict('rate-limited', T + 1, 5_000));
    state = applyVerdict(state, verdict('rate-limited', T + 2, 5_000));
    expect(state).toMatchObject({ failures: 1, openUntil: null, pausedUntil: T + 5_002 });
    expect(applyVerdict(state, verdict('rate-limited', T + 3, 3_600_000)).pausedUntil).toBe(T + 3 + 60_000);
    expect(pacingAllowance(state, policy, T + 5_001, 0).allowance).toBe(0);

    const open = { ...fresh, failures: 3, openUntil: T + 10_000 };
    const probing = spend(open, T + 10_000, 1, T + 20_000);
    const answered = applyVerdict(probing, verdict('rate-limited', T + 10_100, 1_000, 'claim-probe'));
    expect(answered).toMatchObject({ probeToken: null, probeUntil: null, openUntil: T + 10_000, failures: 3 });
  });
});
