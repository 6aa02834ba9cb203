import { describe, expect, it } from 'vitest';
import { escapeTeamsMarkdown } from '../../src/templates/escape-teams-markdown.js';

/** What a CommonMark reader shows for escaped text: each backslash escape is the character after it. */
const shown = (escaped: string) => escaped.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('escapeTeamsMarkdown', () => {
  it.each([
    ['[click](http://evil)', '\\[click\\]\\(http://evil\\)'],
    ['**bold** and _italic_ and ~~struck~~', '\\*\\*bold\\*\\* and \\_italic\\_ and \\~\\~struck\\~\\~'],
    ['<at>x</at>', '\\<at\\>x\\</at\\>'],
    ['<https://evil.example>', '\\<https://evil.example\\>'],
    ['`code` {{DATE(2026-11-22T10:00:00Z, SHORT)}}', '\\`code\\` \\{\\{DATE\\(2026-11-22T10:00:00Z, SHORT\\)\\}\\}'],
    ['a &amp; b | c', 'a \\&amp; b \\| c'],
    ['C:\\Users\\x', 'C:\\\\Users\\\\x'],
    ['![image](http://evil/pixel.png)', '!\\[image\\]\\(http://evil/pixel.png\\)'],
  ])('%s stays literal text', (text, escaped) => {
    expect(escapeTeamsMarkdown(text)).toBe(escaped);
    expect(shown(escapeTeamsMarkdown(text))).toBe(text);
  });

  it.each([
    ['- list item', '\\- list item'],
    ['+ list item', '\\+ list item'],
    ['# heading', '\\# heading'],
    ['  1. numbered', '  1\\. numbered'],
    ['12) numbered', '12\\) numbered'],
    ['3.', '3\\.'],
    ['> quote', '\\> quote'],
    ['===', '\\==='],
    ['one\n- two\r\n3. three\n\n# four', 'one\n\\- two\r\n3\\. three\n\n\\# four'],
  ])('a block marker at the start of a line (%j) is escaped', (text, escaped) => {
    expect(escapeTeamsMarkdown(text)).toBe(escaped);
    expect(shown(escapeTeamsMarkdown(text))).toBe(text);
  });

  it('leaves ordinary text, and markers inside a line, readable', () => {
    for (const text of [
      'host-7.example.com',
      'Ransomware on host-7',
      'v1.2 - 3 # 4',
      '10.0.0.5 scanned',
      'café 😀',
      '',
    ]) {
      expect(escapeTeamsMarkdown(text)).toBe(text);
    }
  });
});
