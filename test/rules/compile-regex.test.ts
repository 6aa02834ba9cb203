import { describe, expect, it } from 'vitest';
import { compileRegex, MAX_MATCHED_LENGTH } from '../../src/rules/compile/compile-regex.js';

function tester(pattern: string): (text: string) => boolean {
  const compiled = compileRegex(pattern);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.test;
}

describe('regular expressions (RE2)', () => {
  it('searches anywhere in the value; ^ and $ anchor', () => {
    expect(tester('ransom')('Big ransomware attack')).toBe(true);
    expect(tester('^ransom')('Big ransomware attack')).toBe(false);
  });

  it('supports (?i) for case-insensitive matching', () => {
    expect(tester('(?i)ransomware')('RANSOMWARE')).toBe(true);
    expect(tester('ransomware')('RANSOMWARE')).toBe(false);
  });

  it('finishes the classic catastrophic pattern at once', () => {
    // A backtracking engine (JavaScript's RegExp) needs about 2^30 steps here and would hit the test
    // timeout; RE2 is linear in the input. Speed itself is not asserted (no timed tests).
    const test = tester('(a+)+$');
    expect(test(`${'a'.repeat(30)}!`)).toBe(false);
    expect(test(`${'a'.repeat(60_000)}!`)).toBe(false);
    expect(tester('(x+x+)+y')('x'.repeat(5_000))).toBe(false);
  });

  it('looks at no more than the first 64 KiB of a value', () => {
    const test = tester('needle');
    expect(test(`${'x'.repeat(MAX_MATCHED_LENGTH - 6)}needle`)).toBe(true);
    expect(test(`${'x'.repeat(MAX_MATCHED_LENGTH)}needle`)).toBe(false);
    // The cut is the end of what is searched, so $ matches there (documented in docs/rules.md).
    expect(tester('x$')(`${'x'.repeat(MAX_MATCHED_LENGTH)}!`)).toBe(true);
  });

  it.each([
    ['(a', 'missing closing )'],
    ['(a)\\1', 'invalid escape sequence'],
    ['[z-a]', 'invalid character class range'],
  ])('rejects %s with the reason', (pattern, reason) => {
    const compiled = compileRegex(pattern);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.reason).toContain(reason);
  });

  it.each([
    ['^(?!test-)', '(?!', 'not: { matches: PATTERN }'],
    ['(?<!dev)-prod', '(?<!', 'not: { matches: PATTERN }'],
    ['(?=.*ransom)(?=.*wiper)', '(?=', 'one where condition per pattern'],
    ['(?<=host-)\\d+', '(?<=', 'one where condition per pattern'],
  ])('rejects the lookaround in %s and says what to write instead', (pattern, group, advice) => {
    const compiled = compileRegex(pattern);
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.reason).toContain(`RE2 has no lookahead or lookbehind ("${group}" is not supported)`);
    expect(compiled.reason).toContain(advice);
  });

  it('does not mistake an escaped parenthesis for lookaround', () => {
    expect(compileRegex('\\(\\?=').ok).toBe(true);
  });

  it('rejects a pattern whose compiled program is too large to run on every event', () => {
    const compiled = compileRegex('(?:\\w+\\s?){1000}[!?]');
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.reason).toMatch(/too complex \(RE2 program size \d+, limit 500\)/);
    expect(compileRegex('(?i)\\b(ransomware|wiper|crypto-?locker)\\b').ok).toBe(true);
  });
});
