import { describe, expect, it } from 'vitest';
import { routeEvent } from '../../src/rules/route-event.js';
import { event } from './support/event.js';
import { rulesLoader } from './support/load-rules-text.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { compile } = rulesLoader();

describe('routeEvent', () => {
  it('fires every matching route in order and sends each target the event once', () => {
    const rules = compile(`${TARGETS_YAML}
routes:
  - { name: one, match: { event: incident.created }, to: [b, a] }
  - { name: two, to: [a, c] }
  - { name: three, match: { event: agent.offline }, to: [c] }
fallback: [c]
`);
    expect(routeEvent(rules, event('incident.created'))).toEqual({
      severity: { raw: null, level: null, unknown: false },
      matchedRoutes: ['one', 'two'],
      targets: ['b', 'a', 'c'],
      usedFallback: false,
    });
  });

  it('stops after a matching stop route, but not after a non-matching one', () => {
    const rules = compile(`${TARGETS_YAML}
routes:
  - { name: skipped-stop, match: { event: agent.offline }, to: [c], stop: true }
  - { name: stopper, match: { event: incident.created }, to: [a], stop: true }
  - { name: after, to: [b] }
fallback: []
`);
    expect(routeEvent(rules, event('incident.created')).matchedRoutes).toEqual(['stopper']);
    expect(routeEvent(rules, event('incident.created')).targets).toEqual(['a']);
    expect(routeEvent(rules, event('threat.detected')).matchedRoutes).toEqual(['after']);
  });

  it('drops on purpose with to: [] and stop: true, without using the fallback', () => {
    const rules = compile(`${TARGETS_YAML}
routes:
  - name: drop-test-agents
    match: { where: [{ field: data.agent.tags, equals: test }] }
    to: []
    stop: true
  - { name: everything, to: [a] }
fallback: [b]
`);
    expect(routeEvent(rules, event('agent.offline', { agent: { tags: ['lab', 'test'] } }))).toMatchObject({
      matchedRoutes: ['drop-test-agents'],
      targets: [],
      usedFallback: false,
    });
    expect(routeEvent(rules, event('agent.offline', { agent: { tags: ['prod'] } })).targets).toEqual(['a']);
  });

  it('uses the fallback only when no route matched at all', () => {
    const rules = compile(`${TARGETS_YAML}
routes:
  - { name: incidents, match: { event: incident.* }, to: [a] }
fallback: [b, c]
`);
    expect(routeEvent(rules, event('vendor.new.kind'))).toMatchObject({
      matchedRoutes: [],
      targets: ['b', 'c'],
      usedFallback: true,
    });
    expect(routeEvent(rules, event('incident.updated'))).toMatchObject({ targets: ['a'], usedFallback: false });
  });

  it('routes nowhere without a fallback when nothing matches', () => {
    const result = rulesLoader().load(`${TARGETS_YAML}
routes:
  - { name: incidents, match: { event: incident.* }, to: [a, b, c] }
`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(routeEvent(result.rules, event('agent.online'))).toMatchObject({ targets: [], usedFallback: false });
  });

  it('accepts a list mixing exact names and globs', () => {
    const rules = compile(`${TARGETS_YAML}
routes:
  - { name: mixed, match: { event: [threat.detected, agent.*] }, to: [a] }
fallback: []
`);
    expect(routeEvent(rules, event('agent.online')).targets).toEqual(['a']);
    expect(routeEvent(rules, event('threat.detected')).targets).toEqual(['a']);
    expect(routeEvent(rules, event('incident.created')).targets).toEqual([]);
  });

  it('does not change the event', () => {
    const rules = compile(`${TARGETS_YAML}
routes: [{ name: all, to: [a] }]
fallback: []
`);
    const envelope = Object.freeze(event('incident.created', Object.freeze({ severity: 'high' })));
    expect(() => routeEvent(rules, envelope)).not.toThrow();
  });
});
