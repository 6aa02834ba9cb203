import { describe, expect, it } from 'vitest';
import { escapeSlack } from '../../src/templates/escape-slack.js';
import { escapeTeamsMarkdown } from '../../src/templates/escape-teams-markdown.js';
import { revealBidiControls } from '../../src/templates/reveal-bidi-controls.js';

describe('revealBidiControls', () => {
  it('shows a right-to-left override, so "gnp.exe" cannot pose as "exe.png"', () => {
    expect(revealBidiControls('invoice_\u202Egnp.exe')).toBe('invoice_⟨U+202E⟩gnp.exe');
  });

  it.each([
    ['\u202A', 'U+202A'],
    ['\u202B', 'U+202B'],
    ['\u202C', 'U+202C'],
    ['\u202D', 'U+202D'],
    ['\u202E', 'U+202E'],
    ['\u2066', 'U+2066'],
    ['\u2067', 'U+2067'],
    ['\u2068', 'U+2068'],
    ['\u2069', 'U+2069'],
    ['\u200E', 'U+200E'],
    ['\u200F', 'U+200F'],
    ['\u061C', 'U+061C'],
  ])('marks %j as ⟨%s⟩, every time it occurs', (char, code) => {
    expect(revealBidiControls(`a${char}b${char}`)).toBe(`a⟨${code}⟩b⟨${code}⟩`);
  });

  it('leaves other text as it is: right-to-left scripts, emoji joined by ZWJ, the neighbours of the ranges', () => {
    const text = 'שלום مرحبا 👩\u200D💻 \u2029 \u2065 \u206A \u2029 \u202F \u200D e\u0301';
    expect(revealBidiControls(text)).toBe(text);
  });
});

describe('chat escaping reveals bidi controls', () => {
  it('Slack', () => {
    expect(escapeSlack('<b>\u202Egnp.exe')).toBe('&lt;b&gt;⟨U+202E⟩gnp.exe');
  });

  it('Teams Markdown', () => {
    expect(escapeTeamsMarkdown('*\u2067x\u2069')).toBe('\\*⟨U+2067⟩x⟨U+2069⟩');
  });
});
