import { DELIVERY_STATES, type DeliveryFilter, type DeliveryState } from '../store/store.js';
import { parseInstant } from './parse-instant.js';

const STATES: readonly DeliveryState[] = DELIVERY_STATES;

/** The filter options `deliveries` and `replay` share, for parseArgs. */
export const DELIVERY_FILTER_OPTIONS = {
  config: { type: 'string', short: 'c' },
  state: { type: 'string' },
  target: { type: 'string' },
  event: { type: 'string' },
  'held-by': { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  limit: { type: 'string' },
} as const;

export const DELIVERY_FILTER_USAGE = `  --config FILE   the daemon's config, to find the journal (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --state S       pending | delivered | dead, or held back: silenced | muted | suppressed | grouped
  --held-by ID    deliveries held by one silence (sil_...), interval, throttle or digest (dig_..., or the
                  digest's own event id)
  --target NAME   one target
  --event ID      one event's deliveries
  --since WHEN    created at or after WHEN: 2026-11-22T10:00:00Z, 2026-11-22, or a duration ago (90m, 2h, 7d)
  --until WHEN    created before WHEN (same forms)
  --limit N       at most N deliveries`;

/** Turns the shared options into a filter, or a message naming the bad value. */
export function parseDeliveryFilter(
  values: Record<string, string | boolean | undefined>,
  now: number,
): DeliveryFilter | string {
  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const state = text('state');
  if (state !== undefined && !STATES.includes(state as DeliveryState)) {
    return `--state must be one of ${STATES.join(', ')}, got "${state}"`;
  }
  const instant = (name: string): number | undefined | string => {
    const value = text(name);
    if (value === undefined) return undefined;
    return parseInstant(value, now) ?? `--${name}: "${value}" is not a date-time, a date or a duration`;
  };
  const since = instant('since');
  if (typeof since === 'string') return since;
  const until = instant('until');
  if (typeof until === 'string') return until;
  const limitText = text('limit');
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    return `--limit must be a positive integer, got "${limitText}"`;
  }
  return {
    state: state as DeliveryState | undefined,
    target: text('target'),
    eventId: text('event'),
    heldBy: text('held-by'),
    since,
    until,
    limit,
  };
}
