import { escapeTeamsMarkdown } from '../../templates/escape-teams-markdown.js';
import { clipChars } from './clip-chars.js';
import { flattenHeaderText } from './flatten-header-text.js';

/**
 * Event text for one line of a default Teams card: clipped to `max` characters, line breaks and control
 * characters turned into spaces (a TextBlock would start a new paragraph), then escaped for Teams Markdown.
 */
export function cardText(text: string, max: number): string {
  return escapeTeamsMarkdown(flattenHeaderText(clipChars(text, max), Number.POSITIVE_INFINITY));
}
