import { limitDepth } from '../../templates/limit-depth.js';
import type { DeliveryJob } from '../target.js';
import { flattenHeaderText } from './flatten-header-text.js';

export interface EmailContent {
  readonly subject: string;
  readonly text: string;
}

/** Where events of the documented kinds keep what a human would call them, most telling first. */
const TITLE_PATHS: readonly (readonly string[])[] = [
  ['title'],
  ['summary'],
  ['name'],
  ['agent', 'name'],
  ['agent', 'hostname'],
  ['hostname'],
  ['host'],
  ['policy'],
  ['incident_id'],
];

/** Fields worth a row of their own in the body, when present. */
const DETAIL_ROWS: readonly (readonly [string, readonly string[]])[] = [
  ['Incident', ['incident_id']],
  ['Host', ['host']],
  ['Agent', ['agent', 'name']],
  ['Policy', ['policy']],
  ['Verdict', ['verdict']],
];

/**
 * The message sent when a target has no `subject` / `text` template: a subject such as
 * `[CRITICAL] Incident created: Suspicious login`, and a plain-text body with the key fields and the event
 * as received, pretty-printed (parts nested past `MAX_SHOWN_DEPTH` shown as a marker). Plain text only: it reads the same in every client and ticket gateway, and
 * needs no escaping of event content.
 */
export function defaultEmailMessage(job: DeliveryJob): EmailContent {
  const data = asRecord(job.envelope['data']);
  const heading = flattenHeaderText(describeKind(job.event.kind) + titleSuffix(data));
  const severity = job.event.severity === null ? '' : flattenHeaderText(job.event.severity, 30);
  const subject = severity === '' ? heading : `[${severity.toUpperCase()}] ${heading}`;
  const rows: [string, string][] = [];
  if (severity !== '') rows.push(['Severity', severity]);
  rows.push(['Event', flattenHeaderText(job.event.kind)]);
  for (const [label, path] of DETAIL_ROWS) {
    const value = readPath(data, path);
    if (value !== undefined) rows.push([label, flattenHeaderText(value, 500)]);
  }
  rows.push(
    ['Occurred at', flattenHeaderText(job.event.occurredAt)],
    ['Received at', new Date(job.event.receivedAt).toISOString()],
    ['Source', job.event.source],
    ['Event id', job.event.id],
    ['Delivery id', job.deliveryId],
  );
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const table = rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`).join('\n');
  const text = [
    heading,
    '',
    table,
    '',
    'Event as received:',
    JSON.stringify(limitDepth(job.envelope), null, 2),
    '',
  ].join('\n');
  return { subject: flattenHeaderText(subject), text };
}

/** `incident.created` → `Incident created`; unknown kinds read the same way. */
function describeKind(kind: string): string {
  const words = kind
    .split(/[._-]+/)
    .filter((word) => word !== '')
    .join(' ');
  return words === '' ? 'Event' : words.charAt(0).toUpperCase() + words.slice(1);
}

function titleSuffix(data: Readonly<Record<string, unknown>>): string {
  for (const path of TITLE_PATHS) {
    const value = readPath(data, path);
    if (value !== undefined && value.trim() !== '') return `: ${value}`;
  }
  return '';
}

/** A string or number at `path`, as text; anything else (objects, lists, absent) is undefined. */
function readPath(data: Readonly<Record<string, unknown>>, path: readonly string[]): string | undefined {
  let current: unknown = data;
  for (const key of path) {
    const record = asRecord(current);
    if (!Object.hasOwn(record, key)) return undefined;
    current = record[key];
  }
  if (typeof current === 'string') return current;
  if (typeof current === 'number' || typeof current === 'boolean') return String(current);
  return undefined;
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
