import type { Envelope } from '../ingest/envelope.js';
import { limitDepth } from './limit-depth.js';
import type { TemplateContext } from './template.js';

// Keyed by the envelope object, so an event's context is gone with the event.
const contexts = new WeakMap<Envelope, TemplateContext>();

/**
 * The event as key templates see it at ingest (throttle, group and correlation keys), depth-limited once per
 * event: each of the three walked the whole event for its own copy (limitDepth), a few µs per event in a storm.
 */
export function envelopeContext(envelope: Envelope): TemplateContext {
  let context = contexts.get(envelope);
  if (context === undefined) contexts.set(envelope, (context = limitDepth(envelope) as TemplateContext));
  return context;
}
