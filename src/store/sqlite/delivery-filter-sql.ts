import type { DeliveryFilter } from '../store.js';
import { containsPattern } from '../contains-pattern.js';
import { parseDeliveryId } from './parse-delivery-id.js';

export interface FilterSql {
  /** `WHERE ...` (or empty), with `?` placeholders in the order of `params`. */
  readonly where: string;
  readonly params: (string | number)[];
}

/** Turns a filter into a WHERE clause over `deliveries`; every value is a bound parameter, never spliced. */
export function deliveryFilterSql(filter: DeliveryFilter, extra: readonly string[] = []): FilterSql {
  const conditions: string[] = [...extra];
  const params: (string | number)[] = [];
  if (filter.heldBy !== undefined) {
    const held = heldBySql(filter.heldBy, filter.state);
    conditions.push(held.where);
    params.push(...held.params);
  } else if (filter.state !== undefined) {
    conditions.push('state = ?');
    params.push(filter.state);
  }
  if (filter.target !== undefined) {
    conditions.push('target = ?');
    params.push(filter.target);
  }
  if (filter.eventId !== undefined) {
    conditions.push('event_id = ?');
    params.push(filter.eventId);
  }
  if (filter.kind !== undefined) {
    // A primary-key lookup per delivery row: cheap next to a join when a page stops after `limit` rows.
    conditions.push('EXISTS (SELECT 1 FROM events WHERE events.id = deliveries.event_id AND events.kind = ?)');
    params.push(filter.kind);
  }
  if (filter.after !== undefined) {
    const rowId = parseDeliveryId(filter.after.id);
    // A row value compares (created_at, id) as one key: https://www.sqlite.org/rowvalue.html
    if (rowId === undefined) conditions.push('0');
    else {
      conditions.push(`(deliveries.created_at, deliveries.id) ${filter.order === 'newest' ? '<' : '>'} (?, ?)`);
      params.push(filter.after.createdAt, rowId);
    }
  }
  if (filter.lastErrorContains !== undefined) {
    conditions.push("last_error LIKE ? ESCAPE '\\'");
    params.push(containsPattern(filter.lastErrorContains));
  }
  if (filter.since !== undefined) {
    conditions.push('created_at >= ?');
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    conditions.push('created_at < ?');
    params.push(filter.until);
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}

/**
 * The deliveries one hold holds (and in one state), as a list of row ids the outer query looks up. Migration 7:
 * a digest's grouped deliveries are read by id from its first on (no digest of that id: none), every other
 * hold through `deliveries_held_by`. The indexes are named, and the state asked for goes inside: left to
 * itself, the planner walks every delivery of that state instead.
 */
function heldBySql(heldBy: string, state: string | undefined): FilterSql {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (state === undefined || state === 'grouped') {
    parts.push(
      `SELECT id FROM deliveries INDEXED BY deliveries_grouped WHERE state = 'grouped' AND id > ` +
        `coalesce((SELECT first_delivery FROM digests WHERE digests.id = ?), ${Number.MAX_SAFE_INTEGER}) AND held_by = ?`,
    );
    params.push(heldBy, heldBy);
  }
  if (state !== 'grouped') {
    parts.push(
      'SELECT id FROM deliveries INDEXED BY deliveries_held_by ' +
        `WHERE held_by = ? AND held_by IS NOT NULL AND state <> 'grouped'${state === undefined ? '' : ' AND state = ?'}`,
    );
    params.push(heldBy, ...(state === undefined ? [] : [state]));
  }
  return { where: `deliveries.id IN (${parts.join(' UNION ALL ')})`, params };
}

/** Row ids for `dlv_<n>` ids; ids that are not ours are dropped (they match nothing). */
export function deliveryRowIds(ids: readonly string[]): number[] {
  return ids.map(parseDeliveryId).filter((id): id is number => id !== undefined);
}
