import type { SilenceMatch } from '../api/api-types.js';

/** A silence's `match` in one line: `event agent.*; data.host equals "db-1"`. */
export function describeMatch(match: SilenceMatch): string {
  const parts: string[] = [];
  if (match.event !== undefined) parts.push(`event ${[match.event].flat().join(', ')}`);
  if (match.severity !== undefined) parts.push(`severity ${JSON.stringify(match.severity)}`);
  for (const condition of match.where ?? []) {
    const { field, ...operator } = condition;
    const tests = Object.entries(operator).map(([op, value]) => `${op} ${JSON.stringify(value)}`);
    parts.push(`${field} ${tests.join(' ')}`);
  }
  return parts.join('; ') || 'everything';
}
