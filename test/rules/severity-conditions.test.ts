import { describe, expect, it } from 'vitest';
import { routeEvent } from '../../src/rules/route-event.js';
import { event } from './support/event.js';
import { rulesLoader } from './support/load-rules-text.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { compile, load } = rulesLoader();
const rules = compile(`${TARGETS_YAML}
routes:
  - { name: high-up, match: { severity: { at_least: high } }, to: [a] }
  - { name: low-down, match: { severity: { at_most: LOW } }, to: [b] }
  - { name: medium-only, match: { severity: { in: [medium] } }, to: [c] }
fallback: []
`);
const routesFor = (data: Record<string, unknown>) => routeEvent(rules, event('incident.created', data)).matchedRoutes;

describe('severity conditions', () => {
  it('compares levels by position, case-insensitively on both sides', () => {
    expect(routesFor({ severity: 'critical' })).toEqual(['high-up']);
    expect(routesFor({ severity: 'High' })).toEqual(['high-up']);
    expect(routesFor({ severity: 'medium' })).toEqual(['medium-only']);
    expect(routesFor({ severity: 'low' })).toEqual(['low-down']);
    expect(routesFor({ severity: 'INFO' })).toEqual(['low-down']);
  });

  it('reads an unknown severity as the highest level', () => {
    const decision = routeEvent(rules, event('incident.created', { severity: 'sev0' }));
    expect(decision.matchedRoutes).toEqual(['high-up']);
    expect(decision.severity).toEqual({ raw: 'sev0', level: 'critical', unknown: true });
  });

  it('matches no severity condition when the severity is absent or null', () => {
    expect(routesFor({})).toEqual([]);
    expect(routesFor({ severity: null })).toEqual([]);
  });

  it('reads a non-string severity as the highest level, like any unknown value', () => {
    expect(routesFor({ severity: 4 })).toEqual(routesFor({ severity: 'sev0' }));
    expect(routesFor({ severity: 4 })).toContain('high-up');
  });

  it('combines at_least, at_most and in (all must hold) and uses a custom scale', () => {
    const custom = compile(`${TARGETS_YAML}
severities: [P4, P3, P2, P1]
routes:
  - { name: middle, match: { severity: { at_least: p3, at_most: P2 } }, to: [a] }
fallback: []
`);
    const matched = (severity: string) => routeEvent(custom, event('x.y', { severity })).matchedRoutes;
    expect(matched('P3')).toEqual(['middle']);
    expect(matched('p2')).toEqual(['middle']);
    expect(matched('P1')).toEqual([]);
    expect(matched('P4')).toEqual([]);
    expect(matched('unknown')).toEqual([]); // read as P1, the highest
  });

  it('rejects levels that are not in the list, and duplicate or empty levels', () => {
    const result = load(`${TARGETS_YAML}
severities: [low, high, HIGH, ""]
routes:
  - { name: r, match: { severity: { at_least: urgent, in: [low, sev1] } }, to: [a] }
fallback: []
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const errors = result.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => [p.code, p.line, p.column])).toEqual([
      ['duplicate_severity', 6, 25],
      ['schema', 6, 31],
    ]);
    const levels = load(`${TARGETS_YAML}
routes:
  - { name: r, match: { severity: { at_least: urgent, in: [low, sev1] } }, to: [a] }
fallback: []
`);
    const levelErrors = levels.ok ? [] : levels.problems.filter((p) => p.severity === 'error');
    expect(levelErrors.map((p) => [p.code, p.message, p.line, p.column])).toEqual([
      ['unknown_severity_level', '"urgent" is not one of the severities (info, low, medium, high, critical)', 7, 47],
      ['unknown_severity_level', '"sev1" is not one of the severities (info, low, medium, high, critical)', 7, 65],
    ]);
  });

  it('warns about a condition no severity can satisfy', () => {
    const result = load(`${TARGETS_YAML}
routes:
  - { name: r, match: { severity: { at_least: high, at_most: low } }, to: [a] }
fallback: []
`);
    expect(result.ok && result.warnings.filter((w) => w.code === 'empty_severity_range')).toMatchObject([
      { line: 7, column: 35, message: 'no severity satisfies this condition: the route never matches' },
    ]);
  });
});
