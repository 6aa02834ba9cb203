import type { PagerdutySeverity, PagerdutyTargetSpec } from '../rules.js';
import { checkUrl } from './check-url.js';
import { compileTargetBasics } from './compile-target-basics.js';
import type { TargetContext } from './target-context.js';
import { type PagerdutyTargetYaml } from './target-yaml.js';

const DEFAULT_BASE_URL = 'https://events.pagerduty.com';
/** "The 32 character Integration Key" (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/). */
const ROUTING_KEY_LENGTH = 32;
const SEVERITIES: ReadonlySet<string> = new Set<PagerdutySeverity>(['critical', 'error', 'warning', 'info']);

/** PagerDuty's Events API v2. `key:` is a template over the event; without it the default correlation key is used. */
export function compilePagerdutyTarget(yaml: PagerdutyTargetYaml, target: TargetContext): PagerdutyTargetSpec {
  const baseUrl = yaml.base_url === undefined ? DEFAULT_BASE_URL : checkUrl(yaml.base_url, target, 'base_url');
  return {
    ...compileTargetBasics(yaml, 'pagerduty', target),
    correlationKey: target.template(yaml.key, 'none', 'key'),
    routingKey: checkRoutingKey(yaml.routing_key, target),
    baseUrl: baseUrl.replace(/\/+$/, ''),
    severityMap: compileSeverityMap(yaml.severity_map, target),
  };
}

/**
 * PagerDuty refuses every event whose key is not 32 characters, so a key pasted with a stray space or line
 * break is caught here, not at the first page. The message gives the length only: the key is a secret.
 */
function checkRoutingKey(value: unknown, target: TargetContext): string {
  if (typeof value !== 'string') return '';
  if (!target.isBroken('routing_key') && !value.includes('${') && value.length !== ROUTING_KEY_LENGTH) {
    target.error(
      'bad_routing_key',
      `is ${value.length} characters long; a PagerDuty integration key has ${ROUTING_KEY_LENGTH}, and PagerDuty refuses events with any other`,
      ['routing_key'],
    );
  }
  return value;
}

/** Levels lower-cased, as the event's severity is compared; the same level twice (in any case) is an error. */
function compileSeverityMap(value: unknown, target: TargetContext): ReadonlyMap<string, PagerdutySeverity> {
  const map = new Map<string, PagerdutySeverity>();
  if (typeof value !== 'object' || value === null || Array.isArray(value) || target.isBroken('severity_map')) {
    return map;
  }
  const written = new Map<string, string>();
  for (const [level, severity] of Object.entries(value)) {
    const key = level.toLowerCase();
    const first = written.get(key);
    if (first !== undefined) {
      const message = `"${level}" is the same level as "${first}" (levels are compared case-insensitively)`;
      target.error('duplicate_severity', message, ['severity_map', level], 'key');
    }
    written.set(key, level);
    if (typeof severity === 'string' && SEVERITIES.has(severity)) map.set(key, severity as PagerdutySeverity);
  }
  return map;
}
