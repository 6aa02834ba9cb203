import { describe, expect, it } from 'vitest';
import { chooseSituation } from '../../src/lifecycle/choose-situation.js';
import { defaultCorrelationKey } from '../../src/lifecycle/default-correlation-key.js';

describe('defaultCorrelationKey', () => {
  it('keys incidents by incident_id and agents by agent.id, falling back to agent_id', () => {
    expect(defaultCorrelationKey('incident.updated', { incident_id: 'inc_1' })).toBe('incident:inc_1');
    expect(defaultCorrelationKey('agent.offline', { agent: { id: 'agt_17' } })).toBe('agent:agt_17');
    expect(defaultCorrelationKey('agent.online', { agent_id: 42 })).toBe('agent:42');
  });

  it('gives no key to other kinds or to events without an id', () => {
    expect(defaultCorrelationKey('threat.detected', { incident_id: 'inc_1' })).toBeNull();
    expect(defaultCorrelationKey('incident.created', { incident_id: '' })).toBeNull();
    expect(defaultCorrelationKey('incident.created', { incident_id: { nested: true } })).toBeNull();
    expect(defaultCorrelationKey('agent.offline', null)).toBeNull();
  });
});

describe('chooseSituation', () => {
  it('creates on the first event of a key, updates later, resolves on a resolving kind', () => {
    expect(chooseSituation('incident.created', null)).toBe('create');
    expect(chooseSituation('incident.updated', null)).toBe('create');
    expect(chooseSituation('incident.updated', {})).toBe('update');
    expect(chooseSituation('incident.resolved', { ticket: 'SOC-1' })).toBe('resolve');
    expect(chooseSituation('agent.online', null)).toBe('resolve');
  });
});
