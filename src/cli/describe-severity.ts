import type { SeverityReading } from '../rules/rules.js';

/** One line on how the event's severity was read. */
export function describeSeverity(severity: SeverityReading): string {
  if (severity.raw === null) return 'none (data.severity is absent or not a string: no severity condition matches)';
  if (severity.unknown) {
    return `${JSON.stringify(severity.raw)} is not a configured level: read as ${severity.level ?? '?'}, the highest`;
  }
  return `${JSON.stringify(severity.raw)} (level ${severity.level ?? '?'})`;
}
