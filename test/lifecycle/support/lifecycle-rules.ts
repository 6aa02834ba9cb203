/** A ticketing target with a lifecycle (default key), a Slack target with a key, and one without either. */
export const LIFECYCLE_RULES = `targets:
  tickets:
    type: http
    requests:
      create: { url: https://tickets.example/issues, capture: { ticket: body.key } }
      update: { url: 'https://tickets.example/issues/{{ ref.ticket }}/comments' }
      resolve: { url: 'https://tickets.example/issues/{{ ref.ticket }}/close' }
  ordered: { type: slack, webhook_url: https://hooks.slack.example/x, key: '{{ data.host }}' }
  chat: { type: slack, webhook_url: https://hooks.slack.example/y }
routes:
  - { name: all, match: { event: incident.* }, to: [tickets, ordered, chat] }
fallback: []
`;
