import { describe, expect, it } from 'vitest';
import { compileEventPattern } from '../../src/rules/compile/compile-event-pattern.js';

function matcher(pattern: string): (kind: string) => boolean {
  const compiled = compileEventPattern(pattern);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.matches;
}

describe('event patterns', () => {
  it('matches exact names only exactly', () => {
    const matches = matcher('incident.created');
    expect(matches('incident.created')).toBe(true);
    expect(matches('incident.created.x')).toBe(false);
    expect(matches('incident.create')).toBe(false);
    expect(compileEventPattern('incident.created')).toMatchObject({ form: 'exact' });
  });

  it('lets * match one or more characters within one segment', () => {
    const matches = matcher('agent.*');
    expect(matches('agent.offline')).toBe(true);
    expect(matches('agent.online')).toBe(true);
    expect(matches('agent.')).toBe(false);
    expect(matches('agent')).toBe(false);
    expect(matches('agent.offline.extra')).toBe(false);
    expect(matches('agents.offline')).toBe(false);
  });

  it('supports * inside a segment and in several segments', () => {
    expect(matcher('incident.*d')('incident.created')).toBe(true);
    expect(matcher('incident.*d')('incident.resolved')).toBe(true);
    expect(matcher('incident.*d')('incident.d')).toBe(false);
    expect(matcher('*.created')('incident.created')).toBe(true);
    expect(matcher('*.*')('threat.detected')).toBe(true);
    expect(matcher('*.*')('threat')).toBe(false);
    expect(matcher('a*b*c')('aXbYc')).toBe(true);
    expect(matcher('a*b*c')('abc')).toBe(false);
    expect(matcher('a*b*c')('aXbc')).toBe(false);
    expect(matcher('a*a')('aaa')).toBe(true);
    expect(matcher('a*a')('aa')).toBe(false);
  });

  it('treats a bare * as every kind, including dotted and odd ones', () => {
    const compiled = compileEventPattern('*');
    expect(compiled).toMatchObject({ ok: true, form: 'all' });
    expect(matcher('*')('x.y.z')).toBe(true);
    expect(matcher('*')('')).toBe(true);
  });

  it.each([
    ['agent.**', '"**" is not supported'],
    ['.agent', 'empty segment'],
    ['agent.', 'empty segment'],
    ['a..b', 'empty segment'],
    ['agent.?', '"?" is not allowed'],
    ['agent.[ab]', '"[" is not allowed'],
    ['{a,b}.c', '"{" is not allowed'],
    ['agent offline', '" " is not allowed'],
  ])('rejects %s', (pattern, reason) => {
    const compiled = compileEventPattern(pattern);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.reason).toContain(reason);
  });

  it('matches long attacker-chosen kinds in linear time', () => {
    // A backtracking translation (each * as [^.]+) would take O(n^7) steps here and never return in time.
    const matches = matcher('*a*a*a*a*a*a*a*b');
    expect(matches('a'.repeat(50_000))).toBe(false);
    expect(matches(`${'a'.repeat(50_000)}b`)).toBe(true);
  });
});
