/**
 * A signed-event body whose `data.severity` nests `depth` objects deep (issue 10, item 5: about 5,000 levels
 * gave a 500). Built as text, so nothing recursive runs in the test before the code under test does.
 */
export function deepEvent(depth: number, event = 'incident.created'): string {
  const severity = `${'{"level":'.repeat(depth)}"high"${'}'.repeat(depth)}`;
  return `{"event":"${event}","timestamp":"2026-11-22T10:00:00Z","data":{"incident_id":"inc_deep","severity":${severity}}}`;
}
