import { SwitchyardError } from '../switchyard-error.js';
import type { Envelope } from './envelope.js';
import { exceedsDepth } from './exceeds-depth.js';
import { hasDuplicateKeys } from './has-duplicate-keys.js';
import { isEscaped } from './is-escaped.js';

// ISO 8601 date-time as the upstream sends it: date, 'T', time with optional fraction, and a zone.
// We require a zone (Z or ±hh:mm) because a zone-less time is ambiguous in a journal read across regions.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * The deepest nesting an envelope may have (the envelope object is level 1, `data` level 2). The monitoring
 * service sends a few levels; a much deeper event is refused with a documented 400 (`event_too_deep`, not
 * retried by the sender) rather than journaled, because every later reader of the event (routing, templates,
 * the admin API, the CLI) would have to survive it too (issue 10, item 5).
 */
export const MAX_EVENT_DEPTH = 64;

/** The longest event kind: the documented ones are under 30 characters; it is logged and stored per event. */
export const MAX_EVENT_KIND_LENGTH = 200;

// JSON exchanged between systems must be UTF-8 (RFC 8259 §8.1); Buffer#toString would silently replace bad bytes.
// A byte order mark is kept in the text, not skipped (TextDecoder's default), and refused: every later reader
// decodes the stored body with Buffer#toString, which keeps it, and JSON.parse refuses it there.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_envelope', message, { status: 400 });
}

/**
 * Parses and validates the envelope from the raw body. Called only after the signature was verified, so
 * unauthenticated senders never reach the JSON parser.
 */
export function parseEnvelope(body: Buffer | string): Envelope {
  return validateEnvelope(parseBody(body));
}

/**
 * The raw body as JSON (what the sender signed, every field kept); a coded 400 when it is not UTF-8 JSON, or
 * JSON that what comes after cannot take as the ingest reads it: a byte order mark, a key written twice in an
 * object, a NUL character (PostgreSQL's text and jsonb cannot hold one). docs/decisions/ingest-content-refusals.md
 */
export function parseBody(body: Buffer | string): unknown {
  let text: string;
  try {
    text = typeof body === 'string' ? body : utf8.decode(body);
  } catch {
    throw new SwitchyardError('invalid_json', 'request body is not valid UTF-8 (RFC 8259 §8.1)', { status: 400 });
  }
  if (text.charCodeAt(0) === 0xfeff) {
    throw new SwitchyardError('invalid_json', 'request body starts with a byte order mark (RFC 8259 §8.1)', {
      status: 400,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new SwitchyardError('invalid_json', 'request body is not valid JSON', { status: 400 });
  }
  if (hasDuplicateKeys(text, value)) {
    throw new SwitchyardError('invalid_json', 'an object in the body has a key twice (RFC 7493 §2.3)', {
      status: 400,
    });
  }
  if (hasNul(text)) throw invalid('the event holds a NUL character (\\u0000), which the journal cannot store');
  return value;
}

/** Whether the JSON `text` writes a NUL character, `\u0000` (a raw NUL is not JSON), outside an escaped backslash. */
function hasNul(text: string): boolean {
  for (let at = text.indexOf('\\u0000'); at !== -1; at = text.indexOf('\\u0000', at + 1)) {
    if (!isEscaped(text, at)) return true;
  }
  return false;
}

/** Checks an already-parsed value (also used for events in rule test files and `switchyard route`). */
export function validateEnvelope(value: unknown): Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('body must be a JSON object with "event", "timestamp" and "data"');
  }
  const record = value as Record<string, unknown>;
  if (exceedsDepth(value, MAX_EVENT_DEPTH)) {
    throw new SwitchyardError('event_too_deep', `the event nests deeper than ${MAX_EVENT_DEPTH} levels`, {
      status: 400,
    });
  }
  if (typeof record.event !== 'string' || record.event.length === 0) {
    throw invalid('"event" must be a non-empty string');
  }
  if (record.event.length > MAX_EVENT_KIND_LENGTH) {
    throw invalid(`"event" must be at most ${MAX_EVENT_KIND_LENGTH} characters`);
  }
  if (typeof record.timestamp !== 'string' || !isRealDateTime(record.timestamp)) {
    throw invalid('"timestamp" must be an ISO 8601 date-time with a zone, e.g. 2026-11-22T10:00:00Z');
  }
  const data = record.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw invalid('"data" must be a JSON object');
  }
  return { event: record.event, timestamp: record.timestamp, data: data as Record<string, unknown> };
}

/**
 * ISO 8601 form, and a calendar date that exists: Date.parse rolls 2026-02-30 over to 2 March. The date's
 * digits are read in place rather than split into arrays and a Date (issue 11: this runs for every event).
 * Years 0000-0099 stay refused, as when the check went through Date.UTC, which reads them as 1900-1999.
 */
function isRealDateTime(text: string): boolean {
  if (!ISO_8601.test(text) || Number.isNaN(Date.parse(text))) return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/** The number written by `count` ASCII digits from `start` (the ISO_8601 pattern has checked they are digits). */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** Days in `month` (1-12) of `year` in the proleptic Gregorian calendar, as Date counts them. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
