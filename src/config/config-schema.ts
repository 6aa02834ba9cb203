/**
 * JSON Schema for the daemon config file, checked once at start-up by ajv. Durations and sizes are strings
 * here (`7d`, `1mb`) and are parsed after the schema passes.
 */
const duration = { type: 'string', pattern: '^(?:\\d+(?:ms|s|m|h|d|w))+$' } as const;

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['sources'],
  properties: {
    listen: {
      type: 'object',
      additionalProperties: false,
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
      },
    },
    rules: { type: 'string', minLength: 1 },
    // Exactly one backend: checked after the schema (load-config.ts), for a message that says so.
    store: {
      type: 'object',
      additionalProperties: false,
      properties: {
        sqlite: {
          type: 'object',
          additionalProperties: false,
          required: ['path'],
          properties: { path: { type: 'string', minLength: 1 }, busy_timeout: duration },
        },
        postgres: {
          type: 'object',
          additionalProperties: false,
          required: ['url'],
          properties: {
            // A URL only (not libpq's `key=value` form), so its password can be found and masked in logs.
            url: { type: 'string', pattern: '^postgres(?:ql)?://' },
            // Never needs quoting in SQL (createPostgresPool checks the same).
            schema: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$' },
            pool_size: { type: 'integer', minimum: 1, maximum: 1000 },
          },
        },
      },
    },
    sources: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['secrets'],
        properties: {
          secrets: { type: 'array', minItems: 1, maxItems: 4, items: { type: 'string', minLength: 16 } },
          max_event_age: duration,
          expect_events_within: duration,
        },
      },
    },
    dedupe_window: duration,
    max_body: { type: 'string', pattern: '^\\s*\\d+\\s*(?:[bB]|[kKmM][iI]?[bB])?\\s*$' },
    body_timeout: duration,
    max_body_in_flight: { type: 'string', pattern: '^\\s*\\d+\\s*(?:[bB]|[kKmM][iI]?[bB])?\\s*$' },
    max_connections: { type: 'integer', minimum: 1, maximum: 1000000 },
    header_timeout: duration,
    shutdown_grace: duration,
    log: {
      type: 'object',
      additionalProperties: false,
      properties: { level: { enum: ['error', 'warn', 'info', 'debug'] } },
    },
    admin: {
      type: 'object',
      additionalProperties: false,
      properties: {
        token: { type: 'string', minLength: 16 },
        health_and_metrics: { enum: ['main', 'admin'] },
        // null: no listener of its own; the admin API is then served under /admin on the main listener.
        listen: {
          type: 'object',
          nullable: true,
          additionalProperties: false,
          properties: {
            host: { type: 'string', minLength: 1 },
            port: { type: 'integer', minimum: 0, maximum: 65535 },
          },
        },
        // The web console's sessions (docs/console.md); the console is served on the admin listener only.
        console: {
          type: 'object',
          additionalProperties: false,
          properties: { session_ttl: duration },
        },
        keys: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'hash', 'scopes'],
            properties: {
              name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
              // Only the hash of a key is configured (`switchyard keys new` prints it), never the key itself.
              hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
              scopes: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: { enum: ['read', 'replay', 'silence', 'repair'] },
              },
            },
          },
        },
      },
    },
    // Journal retention (src/retention/): how long finished events and dead letters are kept.
    retention: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        events: duration,
        dead: duration,
        incidents_idle: duration,
        interval: duration,
        batch_size: { type: 'integer', minimum: 1, maximum: 10_000 },
      },
    },
  },
} as const;
