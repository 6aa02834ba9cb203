/**
 * Slack treats `&`, `<` and `>` as control characters in message text (`<!channel>`, `<url|label>`, `<@U123>`),
 * and asks for exactly these three to be escaped:
 * https://api.slack.com/reference/surfaces/formatting#escaping
 */
export function escapeSlack(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}
