import type { Clock } from '../clock.js';
import { createGroupCommit } from '../ingest/group-commit.js';
import type { SharedTargets } from '../store/shared-targets.js';
import type { LanePacer } from './lane-pacer.js';
import { targetSignal } from './outcome.js';
import type { TargetVerdict } from './pacing/apply-verdict.js';
import { pacingPolicyOf } from './pacing/pacing-state.js';

/**
 * How soon to ask again when other instances hold the target's concurrency or its half-open probe: their
 * attempts' ends wake only their own engines.
 */
const SHARED_RECHECK_MS = 100;

/**
 * Pacing kept in a journal several instances share (PostgreSQL): claims go through the target's shared row, and
 * verdicts update the shared circuit in groups, like attempt records (one transaction per group).
 */
export function createSharedPacer(
  shared: SharedTargets,
  clock: Clock,
  onReportFailure: (target: string, error: unknown) => void,
): LanePacer {
  const reporter = createGroupCommit(async (verdicts: readonly TargetVerdict[]) => {
    await shared.report(verdicts);
    return verdicts.map(() => undefined);
  });
  return {
    async claim(lane, request) {
      const paced = await shared.claim({ ...request, policy: pacingPolicyOf(lane.spec.policy) });
      lane.sharedCircuit = paced.circuit;
      lane.sharedProbeAt = paced.probeAt;
      lane.sharedPausedUntil = paced.pausedUntil ?? 0;
      return { claims: paced.claims, blockedUntil: paced.blockedUntil, heldBack: paced.heldBack };
    },
    settle(lane, claimed, outcome, interrupted) {
      const verdict: TargetVerdict = {
        target: lane.spec.name,
        kind: interrupted ? 'permanent' : targetSignal(outcome),
        at: clock.now(),
        retryAfterMs: outcome.kind === 'retry' ? outcome.retryAfterMs : undefined,
        policy: pacingPolicyOf(lane.spec.policy),
        claimToken: claimed.claimToken,
      };
      return reporter.submit(verdict).catch((error: unknown) => onReportFailure(verdict.target, error));
    },
    freesSlotAtAnswer: false,
    recheckMs: SHARED_RECHECK_MS,
    drain: () => reporter.drain(),
  };
}
