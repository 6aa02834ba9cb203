import { waitingColumns } from '../key-order-sql.js';

/**
 * Select lists with the Store's camelCase names (quoted, since PostgreSQL folds unquoted names to lowercase).
 * bigint columns arrive as numbers (createPostgresPool), jsonb as parsed arrays, bytea as Buffers.
 */
const EVENT_SUMMARY = `id, source, kind, severity, occurred_at AS "occurredAt", received_at AS "receivedAt",
  encode(body_sha256, 'hex') AS "bodySha256", rules_version AS "rulesVersion", matched_routes AS "matchedRoutes"`;

export const POSTGRES_COLUMNS = {
  event: `${EVENT_SUMMARY}, body`,
  /** An event without its body, for listings. */
  eventSummary: `${EVENT_SUMMARY}, title`,
  delivery: `'dlv_' || id AS id, event_id AS "eventId", target, state, attempts, next_attempt_at AS "nextAttemptAt",
    last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt", held_by AS "heldBy",
    correlation_key AS "correlationKey"`,
  /** A delivery for listings: with what it waits for, if it waits behind an earlier one of its key (issue 14). */
  listedDelivery: `'dlv_' || id AS id, event_id AS "eventId", target, state, attempts, next_attempt_at AS "nextAttemptAt",
    last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt", held_by AS "heldBy",
    correlation_key AS "correlationKey", ${waitingColumns('deliveries', (name) => `"${name}"`)}`,
} as const;
