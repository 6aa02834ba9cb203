import { revealBidiControls } from './reveal-bidi-controls.js';

/** CommonMark's inline syntax, Teams' `<at>` mentions and `{{DATE()}}` functions, HTML entities, tables. */
const INLINE = /[\\`*_~[\](){}<>&|]/g;
/**
 * What makes a line a heading, list item or setext underline: `#`, `+`, `-`, `=`, or `1.` / `1)` before a
 * space (so `10.0.0.5 scanned` stays as it is: a number is a list marker only with a space after it).
 */
const LINE_START = /^([ \t]*)(?:([#+=-])|(\d+)([.)])(?=\s|$))/gm;

/**
 * Event text made literal for an Adaptive Card TextBlock or fact in Teams, which renders a Markdown subset
 * (bold, italic, lists, links: https://learn.microsoft.com/en-us/adaptive-cards/authoring-cards/text-features),
 * so a title holding `[click](http://evil)`, `**bold**` or `<at>x</at>` shows as written. Each character that
 * can start such syntax gets a backslash, which CommonMark allows before any ASCII punctuation
 * (https://spec.commonmark.org/0.31.2/#backslash-escapes). Parentheses too: some Teams clients still make a
 * link of `\[x\](y)`, never of `\[x\]\(y\)`. Block markers only matter at the start of a line, so `-` and
 * `.` are escaped there alone and `host-7.example` stays readable. Bidi controls are shown as markers
 * (revealBidiControls), so an event cannot reorder what the channel reads.
 */
export function escapeTeamsMarkdown(text: string): string {
  return revealBidiControls(text)
    .replace(INLINE, (char) => `\\${char}`)
    .replace(LINE_START, (_match, indent: string, mark: string | undefined, digits: string, close: string) =>
      mark === undefined ? `${indent}${digits}\\${close}` : `${indent}\\${mark}`,
    );
}
