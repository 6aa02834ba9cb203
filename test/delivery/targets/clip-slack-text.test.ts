import { describe, expect, it } from 'vitest';
import { clipSlackText } from '../../../src/delivery/targets/clip-slack-text.js';
import { escapeSlack } from '../../../src/templates/escape-slack.js';

describe('clipSlackText', () => {
  it('leaves text within the limit as it is', () => {
    expect(clipSlackText('abc', 3)).toBe('abc');
    expect(clipSlackText('', 1)).toBe('');
  });

  it('cuts longer text to exactly the limit, ending with an ellipsis', () => {
    const clipped = clipSlackText('x'.repeat(3_500), 3_000);
    expect(clipped).toHaveLength(3_000);
    expect(clipped).toBe(`${'x'.repeat(2_999)}…`);
  });

  it.each([
    ['&lt;', 1],
    ['&lt;', 2],
    ['&lt;', 3],
    ['&amp;', 4],
    ['&gt;', 2],
  ])('never cuts inside the escape %s (cut %i characters in)', (escape, into) => {
    const text = `${'a'.repeat(10)}${escape}${'b'.repeat(10)}`;
    const clipped = clipSlackText(text, 10 + into + 1);
    expect(clipped).toBe(`${'a'.repeat(10)}…`);
  });

  it('keeps an escape that fits whole', () => {
    expect(clipSlackText(`aa&lt;${'b'.repeat(10)}`, 7)).toBe('aa&lt;…');
  });

  it('1,000 escaped `<` are cut between two escapes, never inside one', () => {
    const clipped = clipSlackText(escapeSlack('<'.repeat(1_000)), 3_000);
    expect(clipped.length).toBeLessThanOrEqual(3_000);
    expect(clipped).toMatch(/^(&lt;)+…$/);
  });

  it('cuts before a control sequence it would split (a link, a date, a mention)', () => {
    expect(clipSlackText('see <https://example.com/a|the runbook> now', 20)).toBe('see …');
    expect(clipSlackText('at <!date^1795341600^{date}|2026-11-22> ok', 12)).toBe('at …');
    expect(clipSlackText('<@U123> and more text', 10)).toBe('<@U123> a…');
  });

  it('never splits a surrogate pair', () => {
    const clipped = clipSlackText(`ab${'😀'.repeat(5)}`, 6);
    expect(clipped).toBe('ab😀…');
    expect(clipped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
