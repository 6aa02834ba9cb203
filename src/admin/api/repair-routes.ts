import type { Request, RequestHandler, Router } from 'express';
import { parseReferenceValues, parseRepairAudit } from '../../store/parse-repair-audit.js';
import { clearForCreate } from '../../store/clear-for-create.js';
import type { RepairAudit } from '../../store/repair-journal.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { requestKey } from './create-admin-auth.js';
import { rejectUnknown } from './parse-filters.js';
import { presentDelivery } from './present-delivery.js';

/**
 * Repairs of a correlation key's line (scope `repair`), as `switchyard skip` and `switchyard references` do:
 * POST /api/v1/deliveries/:id/skip `{"reason"}` gives up on a dead delivery so its key's later ones go on;
 * PUT /api/v1/references `{"target", "key", "values" (null: clear), "reason"}` replaces what a target remembers
 * for a key; POST /api/v1/deliveries/:id/replay-as `{"as": "create", "reason"}` clears the key's references
 * and re-queues a dead or delivered delivery, which is then sent as the key's create. The key's name is who did it; each is written to the journal's repair trail and logged.
 */
export function addRepairRoutes(
  router: Router,
  deps: AdminApiDeps,
  scopes: { readonly read: RequestHandler; readonly repair: RequestHandler },
  json: RequestHandler,
) {
  const { repair } = scopes;
  // The trail, newest first (read scope: it says who changed what, never a secret).
  router.get('/api/v1/repairs', scopes.read, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    rejectUnknown(query, ['target', 'key', 'limit'], 'parameter');
    const text = (name: string) => (typeof query[name] === 'string' && query[name] !== '' ? query[name] : undefined);
    const limit = Number(text('limit') ?? '100');
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit: an integer from 1 to 1000');
    const items = await deps.store.findRepairs({ target: text('target'), key: text('key'), limit });
    res.json({ items: items.map((item) => ({ ...item, at: new Date(item.at).toISOString() })) });
  });

  router.post('/api/v1/deliveries/:id/skip', repair, json, async (req, res) => {
    const id = String(req.params.id);
    const body = objectBody(req, ['reason']);
    const audit = auditOf(body, requestKey(res).name, deps.clock.now());
    const result = await deps.store.skipDelivery(id, audit);
    if (result === 'unknown') throw new SwitchyardError('not_found', `no delivery ${id}`, { status: 404 });
    const delivery = await deps.store.getDelivery(id);
    if (result === 'not-dead' || delivery === undefined) {
      const message = `delivery ${id} is ${delivery?.state ?? 'gone'}: only dead deliveries can be skipped`;
      throw new SwitchyardError('not_dead', message, { status: 409 });
    }
    deps.metrics.increment('switchyard_deliveries_skipped_total', { target: delivery.target, reason: 'operator' });
    deps.log.warn('delivery skipped through the admin API', { key: audit.actor, delivery: id, reason: audit.reason });
    deps.wakeDeliveries?.();
    res.json(presentDelivery(delivery));
  });

  router.post('/api/v1/deliveries/:id/replay-as', repair, json, async (req, res) => {
    const id = String(req.params.id);
    const body = objectBody(req, ['as', 'reason']);
    if (body.as !== 'create') throw invalid('as: create is the one situation that can be imposed');
    const audit = auditOf(body, requestKey(res).name, deps.clock.now());
    const delivery = await deps.store.getDelivery(id);
    if (delivery === undefined) throw new SwitchyardError('not_found', `no delivery ${id}`, { status: 404 });
    if (delivery.state !== 'dead' && delivery.state !== 'delivered') {
      const message = `delivery ${id} is ${delivery.state}: only dead or delivered deliveries can be replayed`;
      throw new SwitchyardError('not_replayable', message, { status: 409 });
    }
    const refused = await clearForCreate(deps.store, [id], audit);
    if (refused !== null) throw invalid(refused);
    const ids = await deps.store.replay({ ids: [id], includeDelivered: true }, deps.clock.now());
    deps.log.warn('delivery replayed as a create through the admin API', {
      key: audit.actor,
      delivery: id,
      reason: audit.reason,
    });
    if (ids.length > 0) deps.wakeDeliveries?.();
    const after = await deps.store.getDelivery(id);
    res.json(after === undefined ? { id } : presentDelivery(after));
  });

  router.put('/api/v1/references', repair, json, async (req, res) => {
    const body = objectBody(req, ['target', 'key', 'values', 'reason']);
    const { target, key } = body;
    if (typeof target !== 'string' || target === '' || typeof key !== 'string' || key === '') {
      throw invalid('target and key are required strings');
    }
    const values = body.values === null ? null : parseValues(body.values);
    const audit = auditOf(body, requestKey(res).name, deps.clock.now());
    if ((await deps.store.setReferences(target, key, values, audit)) === 'unknown-key') {
      const message = `no delivery of target ${target} has the key ${key}`;
      throw new SwitchyardError('not_found', message, { status: 404 });
    }
    deps.log.warn('references set through the admin API', {
      key: audit.actor,
      target,
      ref_key: key,
      cleared: values === null,
    });
    res.json({ target, key, values });
  });
}

function objectBody(req: Request, fields: readonly string[]): Record<string, unknown> {
  if (!req.is('application/json')) {
    throw new SwitchyardError('unsupported_media_type', 'send the body as application/json', { status: 415 });
  }
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('send a JSON object');
  rejectUnknown(body as Record<string, unknown>, fields, 'field');
  return body as Record<string, unknown>;
}

function auditOf(body: Record<string, unknown>, actor: string, now: number): RepairAudit {
  const audit = parseRepairAudit(actor, body.reason, now);
  if (typeof audit === 'string') throw invalid(audit);
  return audit;
}

function parseValues(values: unknown): Record<string, string> {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw invalid('values: an object of NAME: "value", or null to clear');
  }
  const parsed = parseReferenceValues(values as Record<string, unknown>);
  if (typeof parsed === 'string') throw invalid(`values: ${parsed}`);
  return parsed;
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_repair', message, { status: 400 });
}
