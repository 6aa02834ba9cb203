import { KNOWN_EVENT_KINDS } from '../ingest/envelope.js';
import type { Envelope } from '../ingest/envelope.js';
import type { RouteExplanation } from '../rules/explain-route.js';
import { describeRequest, type RequestExplanation } from '../lifecycle/explain-requests.js';
import { describeSeverity } from './describe-severity.js';
import type { FollowedTarget } from '../lifecycle/follow-targets.js';

/**
 * Where an update or resolve follows its incident besides its routes: with the journal, the targets it does;
 * without, those it would if the incident reached them before.
 */
export type FollowExplanation =
  { readonly followed: readonly FollowedTarget[] } | { readonly mayFollow: readonly string[] };

/**
 * The text `switchyard route` prints: every route with its outcome, and the targets. Target names only:
 * target options may hold secrets.
 */
export function formatExplanation(
  envelope: Envelope,
  explanation: RouteExplanation,
  requests: readonly RequestExplanation[] = [],
  follow: FollowExplanation = { followed: [] },
): string {
  const known = KNOWN_EVENT_KINDS.has(envelope.event) ? '' : ' (not a kind the upstream documents)';
  const lines = [
    `event:    ${envelope.event}${known}`,
    `severity: ${describeSeverity(explanation.severity)}`,
    'routes:',
  ];
  const width = Math.max(0, ...explanation.steps.map((step) => step.route.length));
  for (const step of explanation.steps) {
    const name = step.route.padEnd(width);
    if (step.outcome === 'matched') {
      const to = step.to.length === 0 ? '(no targets)' : step.to.join(', ');
      const muted = step.mutedBy === undefined ? '' : `  [muted by ${step.mutedBy}: recorded, not sent]`;
      lines.push(`  MATCH  ${name}  -> ${to}${step.stop ? '  [stop]' : ''}${muted}`);
    } else if (step.outcome === 'not-matched') {
      lines.push(`  no     ${name}  ${step.failed ?? ''}`);
    } else {
      lines.push(`  skip   ${name}  not evaluated: stopped by ${explanation.stoppedBy ?? '?'}`);
    }
  }
  if (explanation.steps.length === 0) lines.push('  (no routes)');
  lines.push(`targets:  ${describeTargets(explanation)}`);
  if ('followed' in follow)
    for (const { target, reason } of follow.followed) lines.push(`also:     ${target}: ${reason}`);
  else if (follow.mayFollow.length > 0) {
    const list = follow.mayFollow.join(', ');
    lines.push(`follows:  ${list}, those its incident reached before (--config reads the journal)`);
  }
  if (requests.length > 0) lines.push('requests:');
  const targetWidth = Math.max(0, ...requests.map((request) => request.target.length));
  for (const request of requests) {
    lines.push(`  ${request.target.padEnd(targetWidth)}  ${describeRequest(request)}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeTargets(explanation: RouteExplanation): string {
  const list = explanation.targets.join(', ');
  if (explanation.usedFallback) return `${list} (fallback: no route matched)`;
  if (explanation.targets.length > 0) return list;
  if (explanation.matchedRoutes.length > 0) return `none (dropped by ${explanation.matchedRoutes.join(', ')})`;
  return 'none (no route matched and there is no fallback: the event would be stored but delivered nowhere)';
}
