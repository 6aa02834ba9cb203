import { revealBidiControls } from './reveal-bidi-controls.js';

/**
 * Slack treats `&`, `<` and `>` as control characters in message text (`<!channel>`, `<url|label>`, `<@U123>`),
 * and asks for exactly these three to be escaped:
 * https://api.slack.com/reference/surfaces/formatting#escaping. Bidi controls are shown as markers
 * (revealBidiControls), so an event cannot reorder what the channel reads.
 */
export function escapeSlack(text: string): string {
  return revealBidiControls(text).replace(/[&<>]/g, (char) =>
    char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;',
  );
}
