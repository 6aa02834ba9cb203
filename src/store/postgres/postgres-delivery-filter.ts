import type { DeliveryFilter } from '../store.js';
import { containsPattern } from '../contains-pattern.js';
import { parseDeliveryId } from '../sqlite/parse-delivery-id.js';

export interface PostgresFilterSql {
  /** `WHERE ...` (or empty), with `$n` placeholders for `params`, numbered from `firstParam`. */
  readonly where: string;
  readonly params: (string | number)[];
}

/**
 * Turns a filter into a WHERE clause over `deliveries` (columns qualified, so it also works inside a
 * subquery of an UPDATE on the same table); every value is a bound parameter, never spliced.
 */
export function postgresDeliveryFilter(
  filter: DeliveryFilter,
  options: { extra?: readonly string[]; firstParam?: number } = {},
): PostgresFilterSql {
  const conditions: string[] = [...(options.extra ?? [])];
  const params: (string | number)[] = [];
  const param = (value: string | number): string => {
    params.push(value);
    return `$${(options.firstParam ?? 1) + params.length - 1}`;
  };
  if (filter.state !== undefined) conditions.push(`deliveries.state = ${param(filter.state)}`);
  if (filter.heldBy !== undefined) conditions.push(`deliveries.held_by = ${param(filter.heldBy)}`);
  if (filter.target !== undefined) conditions.push(`deliveries.target = ${param(filter.target)}`);
  if (filter.eventId !== undefined) conditions.push(`deliveries.event_id = ${param(filter.eventId)}`);
  if (filter.lastErrorContains !== undefined) {
    conditions.push(`deliveries.last_error ILIKE ${param(containsPattern(filter.lastErrorContains))} ESCAPE '\\'`);
  }
  if (filter.kind !== undefined) {
    conditions.push(
      `EXISTS (SELECT 1 FROM events WHERE events.id = deliveries.event_id AND events.kind = ${param(filter.kind)})`,
    );
  }
  if (filter.after !== undefined) {
    const rowId = parseDeliveryId(filter.after.id);
    // A row comparison takes (created_at, id) as one key, the listing's sort key.
    // https://www.postgresql.org/docs/current/functions-comparisons.html#ROW-WISE-COMPARISON
    if (rowId === undefined) conditions.push('false');
    else {
      const operator = filter.order === 'newest' ? '<' : '>';
      conditions.push(
        `(deliveries.created_at, deliveries.id) ${operator} (${param(filter.after.createdAt)}::bigint, ${param(rowId)}::bigint)`,
      );
    }
  }
  if (filter.since !== undefined) conditions.push(`deliveries.created_at >= ${param(filter.since)}`);
  if (filter.until !== undefined) conditions.push(`deliveries.created_at < ${param(filter.until)}`);
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}
