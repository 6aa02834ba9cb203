import type { Envelope } from '../ingest/envelope.js';
import { limitDepth } from './limit-depth.js';
import type { TemplateContext } from './template.js';

/**
 * The event as key templates see it at ingest (throttle, group and correlation keys), depth-limited at most
 * once per event and only when a key needs it: each of the three walked the whole event for its own copy
 * (limitDepth), a few µs per event in a storm. A closure the caller shares, not a cache keyed by the event: a
 * WeakMap entry per event cost about 2 µs of ingest and garbage collection (docs/decisions/noise-control-costs.md).
 */
export function lazyEnvelopeContext(envelope: Envelope): () => TemplateContext {
  let context: TemplateContext | undefined;
  return () => (context ??= limitDepth(envelope) as TemplateContext);
}
