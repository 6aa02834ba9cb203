import type { MetricHelp } from './metrics.js';

/** The counters the daemon keeps; listed once so /metrics shows them (at 0) from the first scrape. */
export const SWITCHYARD_METRICS: readonly MetricHelp[] = [
  { name: 'switchyard_events_accepted_total', help: 'Events verified, routed and committed to the journal.' },
  { name: 'switchyard_events_duplicate_total', help: 'Identical bodies received again within the dedupe window.' },
  { name: 'switchyard_requests_rejected_total', help: 'Webhook requests refused, by reason.' },
  { name: 'switchyard_deliveries_queued_total', help: 'Deliveries created for accepted events.' },
  {
    name: 'switchyard_unknown_severity_total',
    help: 'Events whose severity is not a configured level (routed as the highest).',
  },
  {
    name: 'switchyard_unknown_event_kind_total',
    help: 'Events of a kind the upstream does not document (routed as usual).',
  },
  {
    name: 'switchyard_events_unrouted_total',
    help: 'Events that matched no route and had no fallback: journaled, delivered nowhere.',
  },
  { name: 'switchyard_rules_reloads_total', help: 'Rules reload attempts, by result.' },
  {
    name: 'switchyard_delivery_attempts_total',
    help: 'Delivery attempts, by target and outcome (delivered, retry, dead).',
  },
];
