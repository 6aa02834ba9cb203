import { HELD_STATES } from '../store/delivery-state.js';
import type { MetricDefinition } from './metrics.js';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * Everything the daemon exposes at /metrics besides process metrics. Label values never come from an
 * unauthenticated request: an unknown source is `(unknown)`, an undocumented event kind `other`, and a
 * request refused before its envelope was parsed has kind `""`, so a stranger cannot grow the series.
 */
export const SWITCHYARD_METRICS: readonly MetricDefinition[] = [
  {
    name: 'switchyard_events_received_total',
    help: 'Webhook requests by source, event kind and outcome: accepted, duplicate, or the rejection reason.',
    type: 'counter',
    labels: ['source', 'kind', 'outcome'],
  },
  {
    name: 'switchyard_deliveries_queued_total',
    help: 'Deliveries created to be sent for accepted events; those held back are in switchyard_deliveries_held_total.',
    type: 'counter',
  },
  {
    name: 'switchyard_deliveries_held_total',
    help: 'Deliveries recorded but not sent, by what held them back (silenced, muted, suppressed, grouped).',
    type: 'counter',
    labels: ['state'],
    initial: HELD_STATES.map((state) => ({ state })),
  },
  {
    name: 'switchyard_unknown_severity_total',
    help: 'Events whose severity is not a configured level (routed as the highest).',
    type: 'counter',
  },
  {
    name: 'switchyard_unknown_event_kind_total',
    help: 'Events of a kind the upstream does not document (routed as usual).',
    type: 'counter',
  },
  {
    name: 'switchyard_events_unrouted_total',
    help: 'Events that matched no route and had no fallback: journaled, delivered nowhere.',
    type: 'counter',
  },
  {
    name: 'switchyard_journal_commit_seconds',
    help: 'Time to commit one group of events to the journal.',
    type: 'histogram',
    buckets: COMMIT_BUCKETS,
  },
  {
    name: 'switchyard_delivery_attempts_total',
    help: 'Delivery attempts by target and outcome (delivered, retry, dead, skipped).',
    type: 'counter',
    labels: ['target', 'outcome'],
  },
  {
    name: 'switchyard_deliveries_skipped_total',
    help:
      'Deliveries recorded skipped by this instance, by target and reason (nothing_to_resolve: a resolve for a ' +
      'key with nothing delivered; operator: skipped through the admin API).',
    type: 'counter',
    labels: ['target', 'reason'],
  },
  {
    name: 'switchyard_email_recipients_refused_total',
    help: 'E-mail recipients the SMTP server refused (RCPT TO answered 4xx or 5xx), by target.',
    type: 'counter',
    labels: ['target'],
  },
  {
    name: 'switchyard_capture_misses_total',
    help: 'Delivered answers that lacked a value their request captures (capture:), by target.',
    type: 'counter',
    labels: ['target'],
  },
  {
    name: 'switchyard_delivery_attempt_duration_seconds',
    help: 'Duration of delivery attempts, by target.',
    type: 'histogram',
    labels: ['target'],
    buckets: DURATION_BUCKETS,
  },
  {
    name: 'switchyard_deliveries',
    help:
      'Deliveries in the journal by target and state (pending, delivered, dead, skipped, and the held silenced, muted, ' +
      'suppressed, grouped: grouped ones until their digest is sent), read at scrape time.',
    type: 'gauge',
    labels: ['target', 'state'],
  },
  {
    name: 'switchyard_target_in_flight',
    help: 'Delivery attempts in flight, by target.',
    type: 'gauge',
    labels: ['target'],
  },
  {
    name: 'switchyard_target_awaiting_record',
    help: 'Attempts the target answered whose record the journal has not committed yet, by target.',
    type: 'gauge',
    labels: ['target'],
  },
  {
    name: 'switchyard_target_circuit_state',
    help: "1 for the target's current circuit state (closed, open, half-open), 0 for the others.",
    type: 'gauge',
    labels: ['target', 'state'],
  },
  { name: 'switchyard_rules_info', help: 'The rules version in force (value 1).', type: 'gauge', labels: ['version'] },
  {
    name: 'switchyard_rules_reloads_total',
    help: 'Rules reloads by result: success (new rules in force), unchanged (the file is the version in force), failure (invalid; the previous rules stay).',
    type: 'counter',
    labels: ['result'],
  },
  {
    name: 'switchyard_rules_last_reload_ok',
    help: '0 when the last rules reload failed (the previous rules are still in force), else 1.',
    type: 'gauge',
  },
];
