import type { TargetSpec } from '../rules/rules.js';

/**
 * Whether a target keeps a lifecycle per correlation key (issue 14), and so gets the default key
 * (default-correlation-key.ts) when its rules give no `key:`: HTTP targets with `requests:`, PagerDuty,
 * whose resolve must not overtake its trigger, and Slack Web API targets (`token:`), which thread by key. Other targets are ordered only when they declare a key.
 */
export function usesLifecycle(spec: TargetSpec): boolean {
  if (spec.type === 'pagerduty') return true;
  if (spec.type === 'slack') return spec.token !== null;
  return spec.type === 'http' && spec.requests !== undefined && spec.requests !== null;
}
