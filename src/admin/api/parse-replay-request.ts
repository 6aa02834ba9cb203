import { refusedReplayState } from '../../store/refused-replay-state.js';
import type { DeliveryFilter, ReplaySelection } from '../../store/store.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { parseFilters, rejectUnknown, type FilterName } from './parse-filters.js';

const FILTERS: readonly FilterName[] = ['state', 'target', 'kind', 'event', 'reason', 'since', 'until'];

/** A selection of the console (issue 13) names at most this many deliveries; a larger set is a filter's job. */
export const MAX_REPLAY_IDS = 1000;

export interface ReplayRequest {
  /** The deliveries named (`ids`) or matched (`filter`). */
  readonly selection: ReplaySelection;
  readonly filter?: DeliveryFilter;
  readonly dryRun: boolean;
  /** Delivered deliveries are re-queued too (with a new idempotency key); without it they are left alone. */
  readonly includeDelivered: boolean;
}

/**
 * The body of POST /api/v1/replay, with the CLI's rules: at least one filter (so `{}` never re-queues every
 * dead letter), dead deliveries unless `state` says delivered, delivered ones only with `includeDelivered`
 * (then, without `state`, dead and delivered), never pending ones. 400 `invalid_filter` otherwise.
 */
export function parseReplayRequest(body: unknown, now: number): ReplayRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('send a JSON object of filters, e.g. {"target": "tickets", "since": "2h"}');
  }
  const input = body as Record<string, unknown>;
  if (input.ids !== undefined) return parseIdsRequest(input);
  rejectUnknown(input, [...FILTERS, 'limit', 'dryRun', 'includeDelivered'], 'field');
  const filters = parseFilters(input, FILTERS, now);
  const { limit, dryRun } = input;
  const includeDelivered = parseIncludeDelivered(input);
  if (limit !== undefined && !(Number.isSafeInteger(limit) && (limit as number) >= 1)) {
    throw invalid('limit: must be a positive integer');
  }
  if (dryRun !== undefined && typeof dryRun !== 'boolean') throw invalid('dryRun: must be true or false');
  if (Object.keys(filters).length === 0 && limit === undefined) {
    throw invalid(
      'narrow the replay with at least one filter (state, target, kind, event, reason, since, until, limit)',
    );
  }
  const refused = refusedReplayState(filters.state);
  if (refused !== undefined) throw invalid(`state: ${refused}`);
  const filter: DeliveryFilter = {
    state: filters.state ?? (includeDelivered ? undefined : 'dead'),
    target: filters.target,
    kind: filters.kind,
    eventId: filters.event,
    lastErrorContains: filters.reason,
    since: filters.since,
    until: filters.until,
    limit: limit as number | undefined,
  };
  return { selection: { filter, includeDelivered }, filter, dryRun: dryRun === true, includeDelivered };
}

/** `{"ids": ["dlv_1", ...]}`: a selection, with `dryRun` and `includeDelivered` but no filter beside it. */
function parseIdsRequest(input: Readonly<Record<string, unknown>>): ReplayRequest {
  rejectUnknown(input, ['ids', 'dryRun', 'includeDelivered'], 'field (with "ids")');
  const { ids, dryRun } = input;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > MAX_REPLAY_IDS ||
    !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)
  ) {
    throw invalid(`ids: give 1 to ${MAX_REPLAY_IDS} delivery ids, e.g. ["dlv_1", "dlv_2"]`);
  }
  if (dryRun !== undefined && typeof dryRun !== 'boolean') throw invalid('dryRun: must be true or false');
  const includeDelivered = parseIncludeDelivered(input);
  const unique = [...new Set(ids as string[])];
  return { selection: { ids: unique, includeDelivered }, dryRun: dryRun === true, includeDelivered };
}

/** `includeDelivered` of a replay body: absent means false. */
export function parseIncludeDelivered(input: Readonly<Record<string, unknown>>): boolean {
  const value = input.includeDelivered;
  if (value !== undefined && typeof value !== 'boolean') throw invalid('includeDelivered: must be true or false');
  return value === true;
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_filter', message, { status: 400 });
}
