import { describe, expect, it } from 'vitest';
import type { DeliveryJob } from '../../src/delivery/target.js';
import { buildTemplateContext } from '../../src/templates/build-template-context.js';
import { compileTemplate } from '../../src/templates/compile-template.js';

function job(envelope: Record<string, unknown>): DeliveryJob {
  const body = Buffer.from(JSON.stringify(envelope));
  return {
    deliveryId: 'dlv_42',
    idempotencyKey: 'dlv_42',
    attempt: 3,
    envelope,
    event: {
      id: 'evt_7',
      source: 'edr',
      kind: String(envelope['event']),
      severity: 'high',
      occurredAt: '2024-05-01T10:00:00Z',
      receivedAt: Date.UTC(2024, 4, 1, 10, 0, 1),
      body,
      bodySha256: '',
      rulesVersion: 'abc',
      matchedRoutes: [],
    },
  };
}

describe('buildTemplateContext', () => {
  it('offers the envelope fields and what Switchyard knows about the delivery', () => {
    const context = buildTemplateContext(
      job({ event: 'incident.created', timestamp: '2024-05-01T10:00:00Z', data: { title: 'x' }, tenant: 't1' }),
    );
    expect(context).toEqual({
      event: 'incident.created',
      timestamp: '2024-05-01T10:00:00Z',
      data: { title: 'x' },
      tenant: 't1',
      switchyard: {
        event_id: 'evt_7',
        delivery_id: 'dlv_42',
        source: 'edr',
        attempt: 3,
        received_at: '2024-05-01T10:00:01.000Z',
        severity: 'high',
      },
      suppressed: { count: 0 },
    });
    const template = compileTemplate(
      '{{ switchyard.event_id }}/{{ switchyard.attempt }} {{ tenant }} {{ data.title }}',
    );
    expect(template.render(context)).toBe('evt_7/3 t1 x');
  });

  it('offers suppressed.count: what a throttle held back before this delivery', () => {
    const context = buildTemplateContext({
      ...job({ event: 'e', data: {}, suppressed: 'forged' }),
      suppressedCount: 979,
    });
    expect(compileTemplate('{{ suppressed.count }} held back').render(context)).toBe('979 held back');
  });

  it('keeps its own switchyard fields when the envelope has one', () => {
    const context = buildTemplateContext(job({ event: 'e', data: {}, switchyard: { event_id: 'forged' } }));
    expect((context['switchyard'] as Record<string, unknown>)['event_id']).toBe('evt_7');
  });
});
