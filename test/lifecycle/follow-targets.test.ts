import { describe, expect, it } from 'vitest';
import { followTargets } from '../../src/lifecycle/follow-targets.js';

const reached = [
  { target: 'pager', follow: true },
  { target: 'tickets', follow: true },
  { target: 'chat', follow: false },
];

describe('followTargets', () => {
  it('sends a resolve to every target the incident reached that no route sends it to', () => {
    expect(followTargets('incident.resolved', 'incident:inc_1', [], reached)).toEqual([
      { target: 'pager', reason: 'followed incident:inc_1 (it received this incident before)' },
      { target: 'tickets', reason: 'followed incident:inc_1 (it received this incident before)' },
    ]);
  });

  it('sends an update the same way, and leaves out the targets a route already sends it to', () => {
    expect(followTargets('incident.updated', 'incident:inc_1', ['tickets'], reached).map((f) => f.target)).toEqual([
      'pager',
    ]);
  });

  it('follows an agent back online to where its going offline went', () => {
    expect(followTargets('agent.online', 'agent:ag_7', [], reached).map((f) => f.target)).toEqual(['pager', 'tickets']);
  });

  it('names the route that first sent the incident there, when known', () => {
    const via = [{ target: 'pager', follow: true, via: 'critical-pages' }];
    expect(followTargets('incident.resolved', 'incident:inc_1', [], via)).toEqual([
      { target: 'pager', reason: 'followed incident:inc_1 from route critical-pages' },
    ]);
  });

  it('leaves out a target with follow: false', () => {
    const followed = followTargets('incident.resolved', 'incident:inc_1', [], reached).map((f) => f.target);
    expect(followed).not.toContain('chat');
  });

  it('follows nothing for a create, another kind, or an event without an incident key', () => {
    expect(followTargets('incident.created', 'incident:inc_1', [], reached)).toEqual([]);
    expect(followTargets('agent.offline', 'agent:ag_7', [], reached)).toEqual([]);
    expect(followTargets('threat.detected', 'incident:inc_1', [], reached)).toEqual([]);
    expect(followTargets('incident.resolved', null, [], reached)).toEqual([]);
  });
});
