import type { PagerdutySeverity } from '../../rules/rules.js';

/**
 * Our five default levels onto PagerDuty's four (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/).
 * PagerDuty has nothing between `warning` and `info`, and a low-severity finding is still a finding, so `low`
 * joins `medium` as `warning`. With a service's urgency "based on severity", critical and error page at high
 * urgency, warning and info at low.
 */
const DEFAULT_MAP: ReadonlyMap<string, PagerdutySeverity> = new Map([
  ['critical', 'critical'],
  ['high', 'error'],
  ['medium', 'warning'],
  ['low', 'warning'],
  ['info', 'info'],
]);

/**
 * What an event without a severity, or with one neither map knows, is sent as. Such an event reached the
 * pager because a route sent it there (the rules read an unknown level as the highest): it should page, but
 * not claim to be critical.
 */
export const FALLBACK_PAGERDUTY_SEVERITY: PagerdutySeverity = 'error';

/** The event's severity as received (compared case-insensitively): the target's `severity_map` first, then ours. */
export function mapPagerdutySeverity(
  severity: string | null,
  overrides: ReadonlyMap<string, PagerdutySeverity>,
): PagerdutySeverity {
  if (severity === null) return FALLBACK_PAGERDUTY_SEVERITY;
  const level = severity.toLowerCase();
  return overrides.get(level) ?? DEFAULT_MAP.get(level) ?? FALLBACK_PAGERDUTY_SEVERITY;
}
