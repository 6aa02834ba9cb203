import { describe, expect, it } from 'vitest';
import { explainRoute } from '../../src/rules/explain-route.js';
import { routeEvent } from '../../src/rules/route-event.js';
import { event } from './support/event.js';
import { rulesLoader } from './support/load-rules-text.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { compile } = rulesLoader();
const rules = compile(`${TARGETS_YAML}routes:
  - { name: drop, match: { where: [{ field: data.agent.tags, equals: test }] }, to: [], stop: true }
  - { name: critical, match: { event: [incident.created, incident.updated], severity: { at_least: high } }, to: [a, b] }
  - { name: agents, match: { event: agent.* }, to: [c] }
  - { name: low, match: { event: incident.created, severity: { at_most: low } }, to: [c], stop: true }
  - { name: tail, to: [a] }
fallback: [b]
`);

describe('explainRoute', () => {
  it('gives the first failed condition of each route that did not match', () => {
    const explanation = explainRoute(rules, event('incident.created', { severity: 'medium' }));
    expect(explanation.steps.map((step) => [step.route, step.outcome, step.failed])).toEqual([
      ['drop', 'not-matched', 'data.agent.tags: absent, so equals "test" does not hold'],
      ['critical', 'not-matched', 'severity: "medium" is below at_least high'],
      ['agents', 'not-matched', 'event: "incident.created" does not match agent.*'],
      ['low', 'not-matched', 'severity: "medium" is above at_most low'],
      ['tail', 'matched', null],
    ]);
    expect(explanation).toMatchObject({
      matchedRoutes: ['tail'],
      targets: ['a'],
      usedFallback: false,
      stoppedBy: null,
    });
  });

  it('marks routes after a matching stop route as not evaluated', () => {
    const explanation = explainRoute(rules, event('incident.created', { severity: 'info' }));
    expect(explanation.steps.map((step) => step.outcome)).toEqual([
      'not-matched',
      'not-matched',
      'not-matched',
      'matched',
      'not-evaluated',
    ]);
    expect(explanation.stoppedBy).toBe('low');
  });

  it('explains absent and unknown severities', () => {
    const absent = explainRoute(rules, event('incident.created')).steps[1]?.failed;
    expect(absent).toBe('severity: absent (data.severity is missing or not a string), so no severity condition holds');
    const unknown = explainRoute(rules, event('incident.created', { severity: 'sev0' }));
    expect(unknown.steps[3]?.failed).toBe(
      'severity: "sev0" (not a configured level, read as critical) is above at_most low',
    );
  });

  it('agrees with routeEvent', () => {
    const events = [
      event('incident.created', { severity: 'critical' }),
      event('incident.created', { severity: 'LOW' }),
      event('incident.updated', { severity: 'sev0', agent: { tags: ['test'] } }),
      event('agent.offline'),
      event('unknown.kind', { severity: 5 }),
    ];
    for (const envelope of events) {
      const { steps: _steps, stoppedBy: _stopped, fallback: _fallback, ...decision } = explainRoute(rules, envelope);
      expect(decision).toEqual(routeEvent(rules, envelope));
    }
  });
});
