import type { EventFilter } from '../store.js';
import { containsPattern } from '../contains-pattern.js';
import { firstEventIdAt } from '../console-sql.js';
import type { PostgresFilterSql } from './postgres-delivery-filter.js';

/** Turns an event filter into a WHERE clause over `events`; every value is a bound parameter, never spliced. */
export function postgresEventFilter(filter: EventFilter): PostgresFilterSql {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  const param = (value: string | number): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.source !== undefined) conditions.push(`events.source = ${param(filter.source)}`);
  if (filter.kind !== undefined) conditions.push(`events.kind = ${param(filter.kind)}`);
  if (filter.severity !== undefined) conditions.push(`events.severity = ${param(filter.severity)}`);
  if (filter.titleContains !== undefined) {
    conditions.push(`events.title ILIKE ${param(containsPattern(filter.titleContains))} ESCAPE '\\'`);
  }
  if (filter.stopAtId !== undefined) {
    conditions.push(`events.id ${filter.order === 'newest' ? '>=' : '<='} ${param(filter.stopAtId)}`);
  }
  // As on SQLite (event-filter-sql.ts): the id bounds let the primary key find the window.
  if (filter.since !== undefined) {
    conditions.push(`events.received_at >= ${param(filter.since)}`);
    conditions.push(`events.id >= ${param(firstEventIdAt(filter.since))}`);
  }
  if (filter.until !== undefined) {
    conditions.push(`events.received_at < ${param(filter.until)}`);
    conditions.push(`events.id < ${param(firstEventIdAt(filter.until))}`);
  }
  if (filter.target !== undefined || filter.deliveryState !== undefined) {
    // One EXISTS for both, so `target` + `deliveryState` means "a delivery to that target in that state";
    // UNIQUE (event_id, target) makes it an index lookup per event.
    const inner = ['deliveries.event_id = events.id'];
    if (filter.target !== undefined) inner.push(`deliveries.target = ${param(filter.target)}`);
    if (filter.deliveryState !== undefined) inner.push(`deliveries.state = ${param(filter.deliveryState)}`);
    conditions.push(`EXISTS (SELECT 1 FROM deliveries WHERE ${inner.join(' AND ')})`);
  }
  if (filter.afterId !== undefined) {
    conditions.push(`events.id ${filter.order === 'newest' ? '<' : '>'} ${param(filter.afterId)}`);
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}
