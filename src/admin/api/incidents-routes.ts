import type { RequestHandler, Router } from 'express';
import { INCIDENT_STATES, type IncidentState } from '../../lifecycle/incident-record.js';
import type { IncidentFilter } from '../../store/incident-journal.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './parse-list-query.js';
import { describeIncident, findOneIncident } from './describe-incident.js';
import { presentIncident } from './present-incident.js';

const FILTERS = ['state', 'severity', 'target', 'host', 'source', 'q'] as const;

/**
 * GET /api/v1/incidents (filters: state, severity, target, host, source, q in the title, key, host or agent;
 * newest activity first, keyset pages) and /incidents/:key[?source=] with what each target was sent and every
 * kept event and delivery of the incident in order.
 */
export function addIncidentsRoutes(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/incidents', read, async (req, res) => {
    const query = parameters(req.query, [...FILTERS, 'limit', 'cursor']);
    const limitText = query.limit ?? String(DEFAULT_PAGE_SIZE);
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw invalid(`limit: must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    const state = query.state;
    if (state !== undefined && !INCIDENT_STATES.includes(state as IncidentState)) {
      throw invalid(`state: must be one of ${INCIDENT_STATES.join(', ')}`);
    }
    const filter: IncidentFilter = {
      state: state as IncidentState | undefined,
      severity: query.severity,
      target: query.target,
      host: query.host,
      source: query.source,
      text: query.q,
      before: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      limit: limit + 1,
    };
    // One more than asked tells whether another page exists without a count.
    const found = await deps.store.findIncidents(filter);
    const items = found.slice(0, limit);
    const last = items.at(-1);
    res.json({
      items: items.map(presentIncident),
      nextCursor: found.length > limit && last !== undefined ? encodeCursor(last) : null,
    });
  });

  router.get('/api/v1/incidents/:key', read, async (req, res) => {
    const key = String(req.params.key);
    const { source } = parameters(req.query, ['source']);
    const record = await findOneIncident(deps.store, key, source);
    res.json(await describeIncident(deps.store, record));
  });
}

/** The query's parameters, each a non-empty string given once; anything else is a 400. */
function parameters<Name extends string>(query: unknown, allowed: readonly Name[]): Partial<Record<Name, string>> {
  const input = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const unknown = Object.keys(input).filter((name) => !(allowed as readonly string[]).includes(name));
  if (unknown.length > 0) throw invalid(`unknown parameter: ${unknown.join(', ')}`);
  const result: Partial<Record<Name, string>> = {};
  for (const name of allowed) {
    const value = input[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') throw invalid(`${name}: give it once, not empty`);
    result[name] = value;
  }
  return result;
}

function encodeCursor(last: { lastAt: number; source: string; key: string }): string {
  return Buffer.from(JSON.stringify(['incidents', last.lastAt, last.source, last.key])).toString('base64url');
}

function decodeCursor(cursor: string): IncidentFilter['before'] {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (Array.isArray(value) && value.length === 4) {
    const [list, lastAt, source, key] = value as unknown[];
    if (list === 'incidents' && Number.isSafeInteger(lastAt) && typeof source === 'string' && typeof key === 'string')
      return { lastAt: lastAt as number, source, key };
  }
  throw new SwitchyardError('invalid_cursor', 'cursor is not one this API gave out', { status: 400 });
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_filter', message, { status: 400 });
}
