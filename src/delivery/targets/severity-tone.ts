/** How urgent a default message looks; each chat target maps a tone to its own colours and emoji. */
export type SeverityTone = 'good' | 'critical' | 'high' | 'medium' | 'low' | 'info' | 'none' | 'unknown';

/** Good news (resolved, back online) is green whatever its severity. */
const GOOD_NEWS: ReadonlySet<string> = new Set(['incident.resolved', 'agent.online']);
const LEVELS: ReadonlySet<string> = new Set(['critical', 'high', 'medium', 'low', 'info']);

/** An unexpected severity is shown as urgent (`unknown`), as the rules read it: the highest level. */
export function severityTone(kind: string, severity: string | null): SeverityTone {
  if (GOOD_NEWS.has(kind)) return 'good';
  if (severity === null) return 'none';
  const level = severity.toLowerCase();
  return LEVELS.has(level) ? (level as SeverityTone) : 'unknown';
}
