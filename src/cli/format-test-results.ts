import { describeRequest } from '../lifecycle/explain-requests.js';
import type { RulesTestResult } from '../rules/tests/run-rules-tests.js';

/** PASS/FAIL per case, the difference for a failure, and a summary line. */
export function formatTestResults(results: readonly RulesTestResult[]): string {
  const list = (names: readonly string[]) => `[${names.join(', ')}]`;
  const lines: string[] = [];
  for (const result of results) {
    if (result.passed) {
      lines.push(`PASS  ${result.name}`);
      continue;
    }
    lines.push(`FAIL  ${result.name} (line ${result.line})`);
    // A target muted at the case's time is not sent: say so rather than call it missing.
    const missing = result.missing.filter((target) => result.mutedBy[target] === undefined);
    if (missing.length > 0) lines.push(`        missing:    ${list(missing)}`);
    for (const target of result.missing.filter((name) => !missing.includes(name))) {
      const by = result.mutedBy[target] ?? '';
      lines.push(`        not sent:   ${target} is muted by interval ${by}: list it in expect_muted, not expect`);
    }
    if (result.unexpected.length > 0) lines.push(`        unexpected: ${list(result.unexpected)}`);
    if (result.mutedMissing.length > 0) lines.push(`        not muted:  ${list(result.mutedMissing)}`);
    for (const target of result.mutedUnexpected) {
      lines.push(`        muted:      ${target} by interval ${result.mutedBy[target] ?? ''}, not in expect_muted`);
    }
    for (const { target, expected, actual } of result.requestMismatches) {
      const got = actual === null ? 'but the event does not reach it' : `would use ${describeRequest(actual)}`;
      lines.push(`        request:    ${target}: expected ${expected}, ${got}`);
    }
    const routes = result.matchedRoutes.length > 0 ? result.matchedRoutes.join(', ') : 'none';
    lines.push(`        matched routes: ${routes}${result.usedFallback ? ' (fallback used)' : ''}`);
    for (const { target, reason } of result.followed) lines.push(`        ${target}: ${reason}`);
  }
  const failed = results.filter((result) => !result.passed).length;
  lines.push(
    `${results.length} case${results.length === 1 ? '' : 's'}: ${results.length - failed} passed, ${failed} failed`,
  );
  return `${lines.join('\n')}\n`;
}
