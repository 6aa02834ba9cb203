import { describe, expect, it } from 'vitest';
import { explainRoute } from '../../src/rules/explain-route.js';
import { routeEvent } from '../../src/rules/route-event.js';
import { runRulesTests } from '../../src/rules/tests/run-rules-tests.js';
import { event } from '../rules/support/event.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';

const { compile, load } = rulesLoader();

const RULES = `time_intervals:
  - name: business-hours
    time_intervals:
      - weekdays: ['monday:friday']
        times: [{ start_time: '09:00', end_time: '17:00' }]
        location: Europe/Berlin
  - name: maintenance-window
    time_intervals:
      - weekdays: [saturday]
        times: [{ start_time: '22:00', end_time: '24:00' }]
        location: Europe/Berlin
targets:
  day-desk: { type: http, url: "https://desk.example/x" }
  pager: { type: http, url: "https://pager.example/x" }
  tickets: { type: http, url: "https://tickets.example/x" }
routes:
  - name: desk-by-day
    match: { event: "incident.*" }
    active_during: [business-hours]
    to: [day-desk]
    stop: true
  - name: agents
    match: { event: "agent.*" }
    muted_during: [maintenance-window]
    to: [pager, tickets]
  - name: tickets-always
    match: { event: "agent.offline" }
    to: [tickets]
fallback: [pager]
`;
const TUESDAY_NOON = Date.parse('2026-11-24T12:00:00+01:00');
const TUESDAY_NIGHT = Date.parse('2026-11-24T23:00:00+01:00');
const SATURDAY_LATE = Date.parse('2026-11-28T22:30:00+01:00');

describe('active_during and muted_during', () => {
  const rules = compile(RULES);

  it('applies a route only while its interval holds; outside, as if it did not match', () => {
    expect(routeEvent(rules, event('incident.created'), TUESDAY_NOON).targets).toEqual(['day-desk']);
    expect(routeEvent(rules, event('incident.created'), TUESDAY_NIGHT)).toMatchObject({
      targets: ['pager'],
      usedFallback: true,
    });
    const explained = explainRoute(rules, event('incident.created'), TUESDAY_NIGHT);
    expect(explained.steps[0]).toMatchObject({ outcome: 'not-matched', failed: 'not active: outside business-hours' });
  });

  it('records targets reached only through a muted route as muted, and names the interval', () => {
    const online = routeEvent(rules, event('agent.online'), SATURDAY_LATE);
    expect(online).toMatchObject({
      targets: ['pager', 'tickets'],
      muted: { pager: 'maintenance-window', tickets: 'maintenance-window' },
    });
    // tickets is also reached by an unmuted route: sent; only pager is muted.
    const offline = routeEvent(rules, event('agent.offline'), SATURDAY_LATE);
    expect(offline.muted).toEqual({ pager: 'maintenance-window' });
    expect(routeEvent(rules, event('agent.offline'), TUESDAY_NIGHT).muted).toBeUndefined();
    const explained = explainRoute(rules, event('agent.offline'), SATURDAY_LATE);
    expect(explained.steps[1]).toMatchObject({ outcome: 'matched', mutedBy: 'maintenance-window' });
  });

  it('lets test cases route at an instant and check what is muted', () => {
    const at = (iso: string) => Date.parse(iso);
    const results = runRulesTests(rules, [
      {
        name: 'night',
        line: 1,
        event: event('incident.created'),
        expect: ['pager'],
        at: at('2026-11-24T23:00:00+01:00'),
      },
      {
        name: 'maintenance',
        line: 2,
        event: event('agent.offline'),
        expect: ['tickets'],
        expectMuted: ['pager'],
        at: SATURDAY_LATE,
      },
      {
        name: 'wrong',
        line: 3,
        event: event('agent.offline'),
        expect: ['tickets'],
        expectMuted: [],
        at: SATURDAY_LATE,
      },
    ]);
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ['night', true],
      ['maintenance', true],
      ['wrong', false],
    ]);
    expect(results[2]?.mutedUnexpected).toEqual(['pager']);
  });

  it('reports unknown interval names where they are used', () => {
    const result = load(RULES.replace('active_during: [business-hours]', 'active_during: [business-hour]'));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((p) => `${p.line} ${p.code}: ${p.message}`)).toEqual([
        '19 unknown_time_interval: active_during: "business-hour" is not one of the time_intervals: did you mean "business-hours"?',
      ]);
    }
  });
});
