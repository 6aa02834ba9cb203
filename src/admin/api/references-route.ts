import type { RequestHandler, Router } from 'express';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';

const MAX_LIMIT = 1_000;

/**
 * GET /api/v1/references[?target=&key=&limit=] (issue 14): what each lifecycle target remembers per correlation
 * key (a ticket key, a Slack `ts`), most recently written first, so an operator can see which ticket an
 * incident went to. Values are captured from the targets' answers: ids, never credentials.
 */
export function addReferencesRoute(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/references', read, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const unknown = Object.keys(query).filter((name) => !['target', 'key', 'limit'].includes(name));
    if (unknown.length > 0) throw invalid(`unknown parameter: ${unknown.join(', ')}`);
    const text = (name: string): string | undefined => {
      const value = query[name];
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || value === '') throw invalid(`${name}: give it once, not empty`);
      return value;
    };
    const limitText = text('limit') ?? '100';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIMIT) {
      throw invalid(`limit: must be an integer from 1 to ${MAX_LIMIT}`);
    }
    const items = await deps.store.findReferences({ target: text('target'), key: text('key'), limit });
    res.json({ items });
  });
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_filter', message, { status: 400 });
}
