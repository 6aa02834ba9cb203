import { randomUUID } from 'node:crypto';
import { startHttpReceiver, type HttpReceiver, type ScriptedAnswer } from './start-http-receiver.js';

/**
 * What PagerDuty's Events API v2 documents, written out here rather than imported, so the stand-in judges
 * the code against the docs and not against itself: https://developer.pagerduty.com/docs/events-api-v2/trigger-events/
 * and .../resolve-events/. The 400 body's shape and the routing key message are PagerDuty's own; the other
 * messages paraphrase the documented rules.
 */
const ROUTING_KEY_LENGTH = 32;
const MAX_DEDUP_KEY = 255;
const MAX_SUMMARY = 1_024;
const MAX_EVENT_BYTES = 512 * 1024;
const ACTIONS = new Set(['trigger', 'acknowledge', 'resolve']);
const SEVERITIES = new Set(['critical', 'error', 'warning', 'info']);

const json = (status: number, body: unknown): ScriptedAnswer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** PagerDuty's answer to a throttled request. */
export const THROTTLED: ScriptedAnswer = json(429, {
  status: 'throttle event',
  message: 'Requests for this service are arriving too quickly. Please retry later.',
});

/** What PagerDuty would answer this request. */
export function judgePagerdutyEvent(method: string, url: string, body: Buffer): ScriptedAnswer {
  if (method !== 'POST' || url !== '/v2/enqueue') return json(404, { status: 'not found', message: 'Not Found' });
  const invalid = (...errors: string[]): ScriptedAnswer =>
    json(400, { status: 'invalid event', message: 'Event object is invalid', errors });
  if (body.length > MAX_EVENT_BYTES) return invalid('Event object is too large (the limit is 512 KB)');
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return json(400, {
      status: 'Unrecognized object',
      message: 'Event object format is unrecognized',
      errors: ['JSON parse error'],
    });
  }
  const errors: string[] = [];
  const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
  if (!text(event.routing_key)) errors.push("'routing_key' is missing or blank");
  else if (event.routing_key.length !== ROUTING_KEY_LENGTH) {
    errors.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  }
  if (!ACTIONS.has(String(event.event_action))) errors.push("'event_action' is invalid");
  if (event.dedup_key !== undefined && (!text(event.dedup_key) || event.dedup_key.length > MAX_DEDUP_KEY)) {
    errors.push("'dedup_key' is blank or longer than 255 characters");
  }
  if (event.event_action !== 'trigger' && event.dedup_key === undefined) errors.push("'dedup_key' is missing");
  if (event.event_action === 'trigger') errors.push(...payloadErrors(event.payload));
  if (errors.length > 0) return invalid(...errors);
  const key = typeof event.dedup_key === 'string' ? event.dedup_key : randomUUID().replace(/-/g, '');
  return json(202, { status: 'success', message: 'Event processed', dedup_key: key });
}

function payloadErrors(payload: unknown): string[] {
  if (typeof payload !== 'object' || payload === null) return ["'payload' is missing"];
  const { summary, source, severity } = payload as Record<string, unknown>;
  const errors: string[] = [];
  if (typeof summary !== 'string' || summary.trim() === '') errors.push("'payload.summary' is missing or blank");
  else if (summary.length > MAX_SUMMARY) errors.push("'payload.summary' is longer than 1024 characters");
  if (typeof source !== 'string' || source.trim() === '') errors.push("'payload.source' is missing or blank");
  if (!SEVERITIES.has(String(severity))) errors.push("'payload.severity' is invalid");
  return errors;
}

/** A local stand-in for events.pagerduty.com that judges every event as the Events API v2 does. */
export function startPagerdutyStandIn(): Promise<HttpReceiver> {
  return startHttpReceiver({ judge: (request) => judgePagerdutyEvent(request.method, request.url, request.body) });
}

/** The events the stand-in received, parsed. */
export function receivedEvents(receiver: HttpReceiver): Record<string, unknown>[] {
  return receiver.requests.map((request) => JSON.parse(request.body.toString('utf8')) as Record<string, unknown>);
}
