/** JSON Schema of a routing tests file (`switchyard test`). Events are checked further by the envelope validator. */
export const RULES_TESTS_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Switchyard routing tests',
  description: 'Cases for `switchyard test`: an event and the exact set of targets it must reach.',
  type: 'object',
  additionalProperties: false,
  required: ['cases'],
  properties: {
    cases: {
      description: 'The test cases, run in order.',
      type: 'array',
      minItems: 1,
      items: {
        description: 'One case.',
        type: 'object',
        additionalProperties: false,
        required: ['name', 'event', 'expect'],
        properties: {
          name: { description: 'What the case checks; unique in the file.', type: 'string', minLength: 1 },
          event: {
            description: 'The webhook envelope: { event, timestamp, data }.',
            type: 'object',
          },
          expect: {
            description: 'The exact set of target names the event must reach ([] for dropped or unrouted).',
            type: 'array',
            uniqueItems: true,
            items: { description: 'A target name.', type: 'string', minLength: 1 },
          },
          at: {
            description:
              'Route as if received at this instant (time intervals): ISO 8601 with Z or an offset, e.g. 2026-12-24T22:00:00+01:00.',
            type: 'string',
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:\\d{2})$',
          },
          expect_muted: {
            description:
              'The exact set of targets recorded as muted (muted_during) instead of sent; checked when given.',
            type: 'array',
            uniqueItems: true,
            items: { description: 'A target name.', type: 'string', minLength: 1 },
          },
          references: {
            description:
              "Issue 14: the history to assume, per target: the values its key has captured so far ({} for a key started without captures). A target not named has none: the event is its key's first. A target named here received the incident, so an update or resolve follows it there (unless it does not follow).",
            type: 'object',
            propertyNames: { minLength: 1 },
            additionalProperties: {
              description: 'Captured values by name, as `{{ ref.<name> }}` sees them.',
              type: 'object',
              additionalProperties: { type: 'string' },
            },
          },
          expect_requests: {
            description: 'Issue 14: the request each named target must use for this event; checked when given.',
            type: 'object',
            propertyNames: { minLength: 1 },
            additionalProperties: { description: 'The situation.', enum: ['create', 'update', 'resolve'] },
          },
        },
      },
    },
  },
} as const;
