/**
 * The correlation key a lifecycle target (per-situation HTTP requests, Slack threads, PagerDuty) uses when its
 * rules give none (issue 14): the incident for `incident.*`, the agent for `agent.*` (docs/events.md), prefixed
 * so an incident and an agent with the same id never share a key. Null for other kinds, or when the id is
 * missing: such an event stands alone (its own create, no ordering).
 */
export function defaultCorrelationKey(kind: string, data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const fields = data as Record<string, unknown>;
  if (kind.startsWith('incident.')) return prefixed('incident', fields['incident_id']);
  if (kind.startsWith('agent.')) {
    const agent = fields['agent'];
    const id = typeof agent === 'object' && agent !== null ? (agent as Record<string, unknown>)['id'] : undefined;
    return prefixed('agent', id ?? fields['agent_id']);
  }
  return null;
}

function prefixed(prefix: string, id: unknown): string | null {
  return (typeof id === 'string' && id !== '') || typeof id === 'number' ? `${prefix}:${String(id)}` : null;
}
