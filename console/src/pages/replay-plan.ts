import type { AdminClient, ReplayRequest } from '../api/admin-client.js';

export interface DeadLetterFilters {
  readonly target?: string;
  readonly reason?: string;
  readonly since?: string;
}

/** Most dead letters one "Replay all matching" re-queues when the reason filter makes it a selection. */
const MAX_SELECTED = 5000;

/**
 * The replay request for "all that match" the page's filters. Target and since are replay filters of the API;
 * the reason (a substring of the last error) is not, so with a reason the matching ids are listed first and
 * replayed as a selection: a replay never covers more than the page shows.
 */
export async function replayAllRequest(client: AdminClient, filters: DeadLetterFilters): Promise<ReplayRequest> {
  if (filters.reason === undefined) {
    return {
      state: 'dead',
      ...(filters.target && { target: filters.target }),
      ...(filters.since && { since: filters.since }),
    };
  }
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.deadLetters({ ...filters, limit: 500, cursor });
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && ids.length < MAX_SELECTED);
  return { ids: ids.slice(0, MAX_SELECTED) };
}
