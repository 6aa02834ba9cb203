import type { DeliveryFilter } from '../store.js';
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
  if (filter.state !== undefined) {
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

/** Row ids for `dlv_<n>` ids; ids that are not ours are dropped (they match nothing). */
export function deliveryRowIds(ids: readonly string[]): number[] {
  return ids.map(parseDeliveryId).filter((id): id is number => id !== undefined);
}
