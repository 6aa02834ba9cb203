import { RESOLVING_KINDS } from '../../lifecycle/choose-situation.js';
import type { PagerdutySeverity, PagerdutyTargetSpec } from '../../rules/rules.js';
import { limitDepth } from '../../templates/limit-depth.js';
import type { DeliveryJob } from '../target.js';
import { clipLine } from './clip-line.js';
import { eventPhrase } from './event-headline.js';
import { fitPagerdutyEvent } from './fit-pagerduty-event.js';
import { mapPagerdutySeverity } from './map-pagerduty-severity.js';
import { pagerdutyDedupKey } from './pagerduty-dedup-key.js';
import { asRecord, readEventDetails, textOf } from './read-event-details.js';

/** PagerDuty's limit for `summary`; the other one-line fields are held to it too. */
const MAX_FIELD = 1_024;
const MAX_LINK = 2_048;

export interface PagerdutyPayload {
  readonly summary: string;
  readonly source: string;
  readonly severity: PagerdutySeverity;
  readonly timestamp: string;
  readonly component?: string;
  readonly group?: string;
  readonly class: string;
  readonly custom_details?: unknown;
}

export interface PagerdutyTrigger {
  readonly routing_key: string;
  readonly event_action: 'trigger';
  readonly dedup_key: string;
  readonly payload: PagerdutyPayload;
  readonly client: 'Switchyard';
  readonly links?: readonly { readonly href: string; readonly text: string }[];
}

export interface PagerdutyResolve {
  readonly routing_key: string;
  readonly event_action: 'resolve';
  readonly dedup_key: string;
}

export type PagerdutyEvent = PagerdutyTrigger | PagerdutyResolve;

/**
 * One Events API v2 event (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/ and
 * .../resolve-events/): a kind that ends a situation resolves the alert of its `dedup_key` (nothing else, as
 * PagerDuty documents it); every other kind triggers, or updates the open alert of the same key. The required
 * fields are never blank and never over PagerDuty's limits, whatever the event holds.
 */
export function buildPagerdutyEvent(spec: PagerdutyTargetSpec, job: DeliveryJob): PagerdutyEvent {
  const common = { routing_key: spec.routingKey, dedup_key: pagerdutyDedupKey(spec, job) };
  const kind = job.event.kind;
  if (RESOLVING_KINDS.has(kind)) return { ...common, event_action: 'resolve' };
  const shown = limitDepth(job.envelope) as Readonly<Record<string, unknown>>;
  const data = asRecord(shown['data']);
  const details = readEventDetails(data);
  const component = line(textOf(data['component']));
  const group = line(textOf(data['group']) ?? textOf(data['environment']));
  const link = consoleLink(textOf(data['url']) ?? textOf(data['link']));
  const payload: PagerdutyPayload = {
    summary: line(details.title) ?? clipLine(eventPhrase(kind, details), MAX_FIELD),
    source: line(details.host) ?? line(details.agent) ?? clipLine(job.event.source, MAX_FIELD),
    severity: mapPagerdutySeverity(job.event.severity, spec.severityMap),
    timestamp: timestampOf(job),
    ...(component === undefined ? {} : { component }),
    ...(group === undefined ? {} : { group }),
    class: line(textOf(data['class'])) ?? clipLine(kind, MAX_FIELD),
    ...customDetails(shown['data']),
  };
  const trigger: PagerdutyTrigger = {
    ...common,
    event_action: 'trigger',
    payload,
    client: 'Switchyard',
    ...(link === undefined ? {} : { links: [{ href: link, text: 'Open in the monitoring console' }] }),
  };
  return fitPagerdutyEvent(trigger, job.event.id);
}

/** One line within the limit, or undefined when nothing is left of it (a title of control characters). */
function line(text: string | undefined): string | undefined {
  const clipped = text === undefined ? '' : clipLine(text, MAX_FIELD);
  return clipped === '' ? undefined : clipped;
}

/** The event's own time when it has a readable one, else when Switchyard received it. */
function timestampOf(job: DeliveryJob): string {
  const at = Date.parse(textOf(job.envelope['timestamp']) ?? '');
  return new Date(Number.isNaN(at) ? job.event.receivedAt : at).toISOString();
}

/** An http(s) link to the event in the monitoring service, shown on the alert. */
function consoleLink(text: string | undefined): string | undefined {
  if (text === undefined || text.length > MAX_LINK || !URL.canParse(text)) return undefined;
  return /^https?:$/.test(new URL(text).protocol) ? text : undefined;
}

/** The event's `data` as the alert's details; PagerDuty wants an object, so anything else is wrapped. */
function customDetails(data: unknown): { custom_details?: unknown } {
  if (data === undefined || data === null) return {};
  const isObject = typeof data === 'object' && !Array.isArray(data);
  return { custom_details: isObject ? data : { data } };
}
