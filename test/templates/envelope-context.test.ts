import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/ingest/envelope.js';
import { lazyEnvelopeContext } from '../../src/templates/envelope-context.js';
import { TOO_DEEP } from '../../src/templates/limit-depth.js';

describe('lazyEnvelopeContext', () => {
  it('depth-limits an event once, whoever asks, and only when asked', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i += 1) deep = { next: deep };
    const envelope: Envelope = { event: 'incident.created', timestamp: '2026-11-26T08:00:00Z', data: deep };
    const contextOf = lazyEnvelopeContext(envelope);
    const context = contextOf();
    expect(contextOf()).toBe(context);
    expect(JSON.stringify(context)).toContain(TOO_DEEP);
    expect(envelope.data).toBe(deep); // the event itself is left as it was
    const shallow: Envelope = { event: 'agent.offline', timestamp: '2026-11-26T08:00:00Z', data: { host: 'db-1' } };
    expect(lazyEnvelopeContext(shallow)()).toBe(shallow);
  });
});
