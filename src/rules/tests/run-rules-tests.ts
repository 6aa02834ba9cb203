import type { Situation } from '../../lifecycle/choose-situation.js';
import { explainRequests, keyedDeliveries, type RequestExplanation } from '../../lifecycle/explain-requests.js';
import { followCandidates } from '../../lifecycle/follow-candidates.js';
import type { FollowedTarget } from '../../lifecycle/follow-targets.js';
import { routeEvent } from '../route-event.js';
import type { CompiledRules } from '../rules.js';
import type { RulesTestCase } from './load-rules-tests-file.js';

export interface RulesTestResult {
  readonly name: string;
  readonly line: number;
  readonly passed: boolean;
  readonly actual: readonly string[];
  /** Expected but not routed to. */
  readonly missing: readonly string[];
  /** Routed to but not expected. */
  readonly unexpected: readonly string[];
  readonly matchedRoutes: readonly string[];
  readonly usedFallback: boolean;
  /** Targets recorded muted instead of sent (`muted_during`), as routed. */
  readonly muted: readonly string[];
  /** The interval each muted target is muted by. */
  readonly mutedBy: Readonly<Record<string, string>>;
  /** With `expect_muted`: expected muted but not, and muted but not expected. */
  readonly mutedMissing: readonly string[];
  readonly mutedUnexpected: readonly string[];
  /** Targets in `actual` only because the event follows its incident there (named in `references:`). */
  readonly followed: readonly FollowedTarget[];
  /** With `expect_requests`: each target whose request differs, with the request it would use (or not routed). */
  readonly requestMismatches: readonly RequestMismatch[];
}

export interface RequestMismatch {
  readonly target: string;
  readonly expected: Situation;
  /** Null: the event does not reach the target (not routed, or muted). */
  readonly actual: RequestExplanation | null;
}

/** Routes each case's event and compares the target set with the expected one (order does not matter). */
export function runRulesTests(rules: CompiledRules, cases: readonly RulesTestCase[]): RulesTestResult[] {
  return cases.map((testCase) => {
    const decision = routeEvent(rules, testCase.event, testCase.at);
    const muted = decision.targets.filter((target) => decision.muted?.[target] !== undefined);
    // `expect` names the targets the event is sent to: muted ones are recorded, not sent.
    // A target named in `references:` received the incident: an update or resolve follows it there.
    const reached = Object.keys(testCase.references ?? {});
    const followed = followCandidates(rules, testCase.event, decision.targets, reached);
    const routed = decision.targets.filter((target) => !muted.includes(target));
    const sent = [...routed, ...followed.map((f) => f.target)];
    const { missing, unexpected } = compare(sent, testCase.expect);
    const mutedCheck = testCase.expectMuted === undefined ? compare([], []) : compare(muted, testCase.expectMuted);
    const requestMismatches = checkRequests(rules, testCase, sent);
    return {
      name: testCase.name,
      line: testCase.line,
      passed: [missing, unexpected, mutedCheck.missing, mutedCheck.unexpected, requestMismatches].every(
        (list) => list.length === 0,
      ),
      actual: sent,
      missing,
      unexpected,
      matchedRoutes: decision.matchedRoutes,
      usedFallback: decision.usedFallback,
      followed,
      muted,
      mutedBy: decision.muted ?? {},
      mutedMissing: mutedCheck.missing,
      mutedUnexpected: mutedCheck.unexpected,
      requestMismatches,
    };
  });
}

/**
 * The case's `references:` stand in for the journal: a target named there has started its key, any other has
 * not. Targets without a lifecycle or key stand alone: `create`, or `resolve` for a resolving kind.
 */
function checkRequests(rules: CompiledRules, testCase: RulesTestCase, sent: readonly string[]): RequestMismatch[] {
  const expected = testCase.expectRequests;
  if (expected === undefined) return [];
  const keyed = keyedDeliveries(rules, testCase.event, sent);
  const deliveries = sent.map((target) => keyed.find((item) => item.target === target) ?? { target, key: null });
  const history = (target: string) => testCase.references?.[target] ?? null;
  const explained = explainRequests(testCase.event.event, deliveries, history);
  return Object.entries(expected).flatMap(([target, request]) => {
    const actual = explained.find((item) => item.target === target) ?? null;
    return actual?.request === request ? [] : [{ target, expected: request, actual }];
  });
}

function compare(actual: readonly string[], expected: readonly string[]) {
  return {
    missing: expected.filter((target) => !actual.includes(target)),
    unexpected: actual.filter((target) => !expected.includes(target)),
  };
}
