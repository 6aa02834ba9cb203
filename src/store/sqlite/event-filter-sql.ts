import type { EventFilter } from '../store.js';
import { containsPattern } from '../contains-pattern.js';
import { firstEventIdAt } from '../console-sql.js';
import type { FilterSql } from './delivery-filter-sql.js';

/** Turns an event filter into a WHERE clause over `events`; every value is a bound parameter, never spliced. */
export function eventFilterSql(filter: EventFilter): FilterSql {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  const add = (condition: string, value: string | number): void => {
    conditions.push(condition);
    params.push(value);
  };
  if (filter.source !== undefined) add('events.source = ?', filter.source);
  if (filter.kind !== undefined) add('events.kind = ?', filter.kind);
  if (filter.severity !== undefined) add('events.severity = ?', filter.severity);
  // SQLite's LIKE ignores ASCII case only: https://www.sqlite.org/lang_expr.html#like
  if (filter.titleContains !== undefined) add("events.title LIKE ? ESCAPE '\\'", containsPattern(filter.titleContains));
  if (filter.stopAtId !== undefined) add(`events.id ${filter.order === 'newest' ? '>=' : '<='} ?`, filter.stopAtId);
  // Ids start with the receipt time (ULIDs), so the same bounds on the id let the primary key find where the
  // window starts instead of reading every row's received_at (console-sql.ts, firstEventIdAt).
  if (filter.since !== undefined) {
    add('events.received_at >= ?', filter.since);
    add('events.id >= ?', firstEventIdAt(filter.since));
  }
  if (filter.until !== undefined) {
    add('events.received_at < ?', filter.until);
    add('events.id < ?', firstEventIdAt(filter.until));
  }
  if (filter.target !== undefined || filter.deliveryState !== undefined) {
    // One EXISTS for both, so `target` + `deliveryState` means "a delivery to that target in that state";
    // UNIQUE (event_id, target) makes it an index lookup per event.
    const inner = ['deliveries.event_id = events.id'];
    if (filter.target !== undefined) {
      inner.push('deliveries.target = ?');
      params.push(filter.target);
    }
    if (filter.deliveryState !== undefined) {
      inner.push('deliveries.state = ?');
      params.push(filter.deliveryState);
    }
    conditions.push(`EXISTS (SELECT 1 FROM deliveries WHERE ${inner.join(' AND ')})`);
  }
  if (filter.afterId !== undefined) add(`events.id ${filter.order === 'newest' ? '<' : '>'} ?`, filter.afterId);
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}
