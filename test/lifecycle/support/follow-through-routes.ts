/** Page critical incidents, ticket (and chat) high ones; no route names an update below high nor a resolve. */
export const FOLLOW_THROUGH_ROUTES = `routes:
  - name: critical-pages
    match: { event: [incident.created, incident.updated], severity: { at_least: critical } }
    to: [pager]
  - name: tickets
    match: { event: [incident.created, incident.updated], severity: { at_least: high } }
    to: [tickets, chat]
fallback: []
`;
