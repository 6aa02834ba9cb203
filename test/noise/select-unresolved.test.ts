import { describe, expect, it } from 'vitest';
import { selectUnresolved } from '../../src/noise/select-unresolved.js';

const at = (receivedAt: number, kind: string, data: Record<string, unknown>) => ({ kind, data, receivedAt });

describe('selectUnresolved', () => {
  it('sends what is still open: not resolved after it, and never a late resolution', () => {
    const held = [
      { deliveryId: 'dlv_1', event: at(10, 'incident.created', { incident_id: 'inc_1' }) },
      { deliveryId: 'dlv_2', event: at(11, 'incident.created', { incident_id: 'inc_2' }) },
      { deliveryId: 'dlv_3', event: at(12, 'incident.resolved', { incident_id: 'inc_2' }) },
      { deliveryId: 'dlv_4', event: at(13, 'agent.offline', { agent: { id: 'agt_1' } }) },
      { deliveryId: 'dlv_5', event: at(14, 'threat.detected', { incident_id: 'inc_2' }) },
      { deliveryId: 'dlv_6', event: at(30, 'incident.updated', { incident_id: 'inc_2' }) },
    ];
    const resolutions = [
      at(12, 'incident.resolved', { incident_id: 'inc_2' }),
      at(20, 'agent.online', { agent: { id: 'agt_1' } }),
      at(25, 'incident.created', { incident_id: 'inc_1' }),
    ];
    // inc_1: open; inc_2: resolved at 12, but updated again at 30 (reopened); agt_1 back online; threats have no end.
    expect(selectUnresolved(held, resolutions)).toEqual(['dlv_1', 'dlv_5', 'dlv_6']);
  });

  it('sends everything open when nothing was resolved, and nothing of nothing', () => {
    const held = [{ deliveryId: 'dlv_1', event: at(1, 'agent.offline', { agent_id: 'a' }) }];
    expect(selectUnresolved(held, [])).toEqual(['dlv_1']);
    expect(selectUnresolved([], [at(1, 'agent.online', { agent_id: 'a' })])).toEqual([]);
  });
});
