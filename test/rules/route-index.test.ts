import { describe, expect, it } from 'vitest';
import { buildRouteIndex } from '../../src/rules/build-route-index.js';
import { routeEvent } from '../../src/rules/route-event.js';
import type { CompiledRoute } from '../../src/rules/rules.js';
import { event } from './support/event.js';
import { rulesLoader } from './support/load-rules-text.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { compile } = rulesLoader();

describe('the route index', () => {
  const rules = compile(`${TARGETS_YAML}
routes:
  - { name: exact-1, match: { event: incident.created }, to: [a] }
  - { name: glob-2, match: { event: incident.* }, to: [b] }
  - { name: other-3, match: { event: agent.offline }, to: [c] }
  - { name: exact-4, match: { event: [threat.detected, incident.created] }, to: [c] }
  - { name: all-5, to: [a] }
  - { name: glob-6, match: { event: "*.created" }, to: [a] }
  - { name: star-7, match: { event: "*", severity: { at_least: high } }, to: [b] }
fallback: []
`);

  it('keeps file order across exact, glob and match-all routes', () => {
    expect(rules.index.candidatesFor('incident.created').map((route) => route.name)).toEqual([
      'exact-1',
      'glob-2',
      'exact-4',
      'all-5',
      'glob-6',
      'star-7',
    ]);
    expect(routeEvent(rules, event('incident.created')).matchedRoutes).toEqual([
      'exact-1',
      'glob-2',
      'exact-4',
      'all-5',
      'glob-6',
    ]);
  });

  it('leaves out routes for other kinds', () => {
    expect(rules.index.candidatesFor('agent.offline').map((route) => route.name)).toEqual([
      'other-3',
      'all-5',
      'star-7',
    ]);
    expect(rules.index.candidatesFor('brand.new').map((route) => route.name)).toEqual(['all-5', 'star-7']);
  });

  it('returns the same frozen list for the same kind', () => {
    const first = rules.index.candidatesFor('incident.updated');
    expect(rules.index.candidatesFor('incident.updated')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('bounds the memo: old kinds are evicted and recomputed identically', () => {
    let tested = 0;
    const glob: CompiledRoute = {
      ...rules.routes[1]!,
      kind: {
        ...rules.routes[1]!.kind,
        matchesKind: (kind) => {
          tested++;
          return kind.startsWith('incident.');
        },
      },
    };
    const index = buildRouteIndex([glob], 2);
    index.candidatesFor('incident.a');
    index.candidatesFor('incident.a');
    expect(tested).toBe(1);
    index.candidatesFor('x.b'); // a glob under "incident" is not even tested for kinds under "x"
    index.candidatesFor('x.c'); // evicts incident.a
    expect(tested).toBe(1);
    expect(index.candidatesFor('incident.a').map((route) => route.name)).toEqual(['glob-2']);
    expect(tested).toBe(2);
  });

  it('scans glob routes once per new kind, never the exact routes of other kinds', () => {
    const names = Array.from(
      { length: 200 },
      (_, i) => `  - { name: r${i}, match: { event: vendor.kind${i} }, to: [a] }`,
    );
    const big = compile(`${TARGETS_YAML}
routes:
${names.join('\n')}
  - { name: agents, match: { event: agent.* }, to: [b] }
fallback: []
`);
    expect(big.index.candidatesFor('agent.online').map((route) => route.name)).toEqual(['agents']);
    expect(big.index.candidatesFor('vendor.kind150').map((route) => route.name)).toEqual(['r150']);
  });
});
