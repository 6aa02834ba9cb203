import { describe, expect, it } from 'vitest';
import { compileSilence, type CompiledSilence } from '../../src/noise/compile-silence.js';
import { findSilence } from '../../src/noise/find-silence.js';
import { silenceHolds } from '../../src/noise/silence-holds.js';
import { compileRegex } from '../../src/rules/compile/compile-regex.js';
import { readSeverity } from '../../src/rules/match/read-severity.js';
import type { StoredSilence } from '../../src/store/stored-silence.js';
import { event } from '../rules/support/event.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';
import { TARGETS_YAML } from '../rules/support/targets-yaml.js';

const rules = rulesLoader().compile(`${TARGETS_YAML}
routes:
  - { name: all, to: [a] }
`);
const T0 = Date.UTC(2026, 11, 1, 10);

function silence(overrides: Partial<StoredSilence>): StoredSilence {
  return {
    id: 'sil_1',
    matchers: { event: 'agent.*' },
    startsAt: T0,
    endsAt: T0 + 3_600_000,
    comment: 'maintenance',
    createdBy: 'alice',
    onExpiry: 'drop',
    createdAt: T0,
    updatedAt: T0,
    releasedAt: null,
    ...overrides,
  };
}
function compiled(overrides: Partial<StoredSilence>): CompiledSilence {
  const result = compileSilence(silence(overrides), rules, compileRegex);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.compiled;
}
function context(kind: string, data: Record<string, unknown> = {}) {
  const envelope = event(kind, data);
  return { envelope, ...readSeverity(envelope.data, rules.severities, rules.severityRanks) };
}

describe('silence matching', () => {
  it('means what the same match: means in a route (event globs, severity, where)', () => {
    const byHost = compiled({ matchers: { event: 'agent.*', where: [{ field: 'data.host', equals: 'db-1' }] } });
    expect(byHost.matches(context('agent.offline', { host: 'db-1' }))).toBe(true);
    expect(byHost.matches(context('agent.offline', { host: 'db-2' }))).toBe(false);
    expect(byHost.matches(context('incident.created', { host: 'db-1' }))).toBe(false);
    const low = compiled({ matchers: { severity: { at_most: rules.severities[0] } } });
    expect(low.matches(context('incident.created', { severity: rules.severities[0] }))).toBe(true);
    expect(low.matches(context('incident.created', { severity: rules.severities.at(-1) }))).toBe(false);
  });

  it('reports matchers that do not compile against the rules in force', () => {
    const result = compileSilence(
      silence({
        matchers: {
          event: 'agent.[',
          severity: { at_least: 'apocalyptic' },
          where: [{ field: 'data.x', matches: '(a' }],
        },
      }),
      rules,
      compileRegex,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(3);
      expect(result.problems[1]).toContain('"apocalyptic" is not one of the severities');
      expect(result.problems[2]).toMatch(/^match\.where\[0\]/);
    }
  });

  it('holds only inside [start, end), and names the silence that ends last', () => {
    const short = compiled({ id: 'sil_a', endsAt: T0 + 60_000 });
    const long = compiled({ id: 'sil_b', endsAt: T0 + 120_000 });
    const agent = context('agent.offline');
    expect(findSilence([short, long], agent, T0 - 1)).toBeUndefined();
    expect(findSilence([short, long], agent, T0)?.silence.id).toBe('sil_b');
    expect(findSilence([short, long], agent, T0 + 60_000)?.silence.id).toBe('sil_b');
    expect(findSilence([short, long], agent, T0 + 120_000)).toBeUndefined();
    expect(findSilence([short], context('incident.created'), T0)).toBeUndefined();
  });

  it('holds every delivery of a silenced event, and nothing for an unsilenced or unrouted one', () => {
    const one = compiled({});
    expect(silenceHolds([one], rules, event('agent.offline'), ['a', 'b'], T0)).toEqual({
      silenceId: 'sil_1',
      holds: [
        { state: 'silenced', by: 'sil_1' },
        { state: 'silenced', by: 'sil_1' },
      ],
    });
    expect(silenceHolds([one], rules, event('incident.created'), ['a'], T0)).toBeUndefined();
    expect(silenceHolds([one], rules, event('agent.offline'), [], T0)).toBeUndefined();
    expect(silenceHolds([], rules, event('agent.offline'), ['a'], T0)).toBeUndefined();
  });
});
