import { describe, expect, it } from 'vitest';
import { incidentFacts } from '../../src/lifecycle/incident-facts.js';

const LEVELS = ['info', 'low', 'medium', 'high', 'critical'];
const reading = (level: string | null) => ({ raw: level, level, unknown: false });
const envelope = (event: string, data: Record<string, unknown>) => ({ event, timestamp: '2026-11-22T10:00:00Z', data });

describe('incidentFacts', () => {
  it('keys an incident event by its incident, with the level, its rank and the host', () => {
    const facts = incidentFacts(
      envelope('incident.created', { incident_id: 'inc_1', host: 'fs-02' }),
      reading('high'),
      LEVELS,
    );
    expect(facts).toEqual({ key: 'incident:inc_1', severity: 'high', severityRank: 3, host: 'fs-02', agent: null });
  });

  it('keys an agent event by its agent, and gives an absent severity rank -1', () => {
    const data = { host: 'db-1', agent: { id: 'ag_7', name: 'db-1' } };
    expect(incidentFacts(envelope('agent.offline', data), reading(null), LEVELS)).toEqual({
      key: 'agent:ag_7',
      severity: null,
      severityRank: -1,
      host: 'db-1',
      agent: 'ag_7',
    });
  });

  it('gives nothing for an event without an incident or an agent', () => {
    expect(incidentFacts(envelope('threat.detected', { host: 'x' }), reading('high'), LEVELS)).toBeUndefined();
    expect(incidentFacts(envelope('incident.created', {}), reading('high'), LEVELS)).toBeUndefined();
  });

  it('cuts a long key and host short', () => {
    const long = 'x'.repeat(500);
    const facts = incidentFacts(envelope('incident.created', { incident_id: long, host: long }), reading(null), LEVELS);
    expect(facts?.key).toHaveLength(200);
    expect(facts?.host).toHaveLength(200);
  });
});
