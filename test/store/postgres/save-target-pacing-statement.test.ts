import { describe, expect, it } from 'vitest';
import { saveTargetPacingStatement } from '../../../src/store/postgres/lock-target-pacing.js';

const STATE = {
  tokens: 0.25,
  refilledAt: 1_700_000_000_000,
  failures: 2,
  openUntil: null,
  probeUntil: 1_700_000_030_000,
  probeToken: "it's",
  pausedUntil: 0,
};

describe('saveTargetPacingStatement', () => {
  it('writes numbers as they are, NULL for none, and text through escapeLiteral', () => {
    const sql = saveTargetPacingStatement("o'hook", STATE);
    expect(sql).toContain('tokens = 0.25, refilled_at = 1700000000000, failures = 2');
    expect(sql).toContain('open_until = NULL, probe_until = 1700000030000, paused_until = 0');
    expect(sql).toContain("probe_token = 'it''s'");
    expect(sql).toMatch(/WHERE target = 'o''hook'$/);
  });

  it('refuses a number that is not finite, or a fraction for an integer column, so nothing else reaches the SQL', () => {
    expect(() => saveTargetPacingStatement('hook', { ...STATE, tokens: Number.NaN })).toThrow(RangeError);
    expect(() => saveTargetPacingStatement('hook', { ...STATE, openUntil: Infinity })).toThrow(RangeError);
    expect(() => saveTargetPacingStatement('hook', { ...STATE, refilledAt: 1.5 })).toThrow(RangeError);
  });
});
