import { describe, expect, it } from 'vitest';
import { groupHeldEvents } from '../../src/noise/group-held-events.js';

describe('groupHeldEvents', () => {
  it('counts events by kind and target, most first, an event in each of its targets, examples in order', () => {
    const groups = groupHeldEvents(
      [
        { id: 'e5', kind: 'agent.offline', targets: ['tickets'] },
        { id: 'e4', kind: 'incident.created', targets: ['soc-slack', 'tickets', 'tickets'] },
        { id: 'e3', kind: 'agent.offline', targets: ['tickets'] },
        { id: 'e2', kind: 'agent.offline', targets: [] },
        { id: 'e1', kind: 'agent.offline', targets: ['tickets'] },
        { id: 'e0', kind: 'agent.offline', targets: ['tickets'] },
      ],
      2,
    );
    expect(groups).toEqual([
      { kind: 'agent.offline', target: 'tickets', events: 4, examples: ['e5', 'e3'] },
      { kind: 'agent.offline', target: null, events: 1, examples: ['e2'] },
      { kind: 'incident.created', target: 'soc-slack', events: 1, examples: ['e4'] },
      { kind: 'incident.created', target: 'tickets', events: 1, examples: ['e4'] },
    ]);
  });

  it('has no groups for no events', () => {
    expect(groupHeldEvents([])).toEqual([]);
  });
});
