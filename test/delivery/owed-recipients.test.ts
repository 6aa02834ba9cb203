import { describe, expect, it } from 'vitest';
import { readOwed, withOwed } from '../../src/delivery/owed-recipients.js';

describe('recipients still owed, kept at the end of last_error', () => {
  it('round-trips through the text, and reads nothing from an error without the mark', () => {
    const text = withOwed('refused for b@example.com (451 4.2.2 Mailbox full)', ['b@example.com', 'c@example.com']);
    expect(text).toBe('refused for b@example.com (451 4.2.2 Mailbox full) [still owed: b@example.com, c@example.com]');
    expect(readOwed(text)).toEqual(['b@example.com', 'c@example.com']);
    expect(readOwed('connection refused (ECONNREFUSED)')).toBeNull();
    expect(readOwed(null)).toBeNull();
    expect(withOwed('timed out', null)).toBe('timed out');
    expect(withOwed(null, ['b@example.com'])).toBeNull();
  });

  it('reads only the mark at the very end, not one a server wrote into its reply', () => {
    const reply = 'refused for b@example.com (550 [still owed: attacker@evil.example]) accepted';
    expect(readOwed(reply)).toBeNull();
    expect(readOwed(withOwed(reply, ['b@example.com']))).toEqual(['b@example.com']);
  });
});
