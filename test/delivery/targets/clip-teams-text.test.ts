import { describe, expect, it } from 'vitest';
import { clipTeamsText } from '../../../src/delivery/targets/clip-teams-text.js';
import { escapeTeamsMarkdown } from '../../../src/templates/escape-teams-markdown.js';

describe('clipTeamsText', () => {
  it('leaves text within the limit as it is, and cuts longer text to the limit with an ellipsis', () => {
    expect(clipTeamsText('abc', 3)).toBe('abc');
    expect(clipTeamsText('x'.repeat(3_500), 3_000)).toBe(`${'x'.repeat(2_999)}…`);
  });

  it('never cuts between a backslash and the character it escapes', () => {
    // `aaaa\*` cut after the backslash would leave `aaaa\…`: an escaped ellipsis, and `*` back as syntax.
    expect(clipTeamsText('aaaa\\*bbbb', 6)).toBe('aaaa…');
    expect(clipTeamsText('aaaa\\*bbbb', 7)).toBe('aaaa\\*…');
    // An escaped backslash (`\\`) is a whole pair: the cut may fall after it.
    expect(clipTeamsText('aaa\\\\bbbb', 6)).toBe('aaa\\\\…');
    expect(clipTeamsText('aaa\\\\\\*bbb', 7)).toBe('aaa\\\\…');
  });

  it('1,000 escaped `*` are cut between two escapes, never inside one', () => {
    for (const max of [100, 101, 1_999]) {
      const clipped = clipTeamsText(escapeTeamsMarkdown('*'.repeat(1_000)), max);
      expect(clipped.length).toBeLessThanOrEqual(max);
      expect(clipped).toMatch(/^(\\\*)+…$/);
    }
  });

  it('never splits a surrogate pair', () => {
    const clipped = clipTeamsText('😀'.repeat(10), 6);
    expect(clipped).toBe('😀😀…');
    expect(clipped.length).toBeLessThanOrEqual(6);
  });
});
