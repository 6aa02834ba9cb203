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
}

/** Routes each case's event and compares the target set with the expected one (order does not matter). */
export function runRulesTests(rules: CompiledRules, cases: readonly RulesTestCase[]): RulesTestResult[] {
  return cases.map((testCase) => {
    const decision = routeEvent(rules, testCase.event);
    const actual = new Set(decision.targets);
    const expected = new Set(testCase.expect);
    const missing = testCase.expect.filter((target) => !actual.has(target));
    const unexpected = decision.targets.filter((target) => !expected.has(target));
    return {
      name: testCase.name,
      line: testCase.line,
      passed: missing.length === 0 && unexpected.length === 0,
      actual: decision.targets,
      missing,
      unexpected,
      matchedRoutes: decision.matchedRoutes,
      usedFallback: decision.usedFallback,
    };
  });
}
