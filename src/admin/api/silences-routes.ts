import type { RequestHandler, Router } from 'express';
import { parseNewSilence, parseSilenceChange } from '../../noise/parse-silence-request.js';
import { previewSilence, type SilencePreview } from '../../noise/preview-silence.js';
import { silenceStatus, type SilenceStatus } from '../../noise/silence-status.js';
import { newId } from '../../store/new-id.js';
import type { StoredSilence } from '../../store/stored-silence.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { requestKey } from './create-admin-auth.js';
import { rejectUnknown } from './parse-filters.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const STATUSES: readonly string[] = ['active', 'pending', 'expired', 'all'];

/**
 * Silences (issue 12): GET /api/v1/silences[?status=active|pending|expired|all] and /silences/:id (read);
 * POST /api/v1/silences, PATCH /silences/:id (extend, shorten, re-word) and POST /silences/:id/expire
 * (silence scope); POST /api/v1/silences/preview (silence scope, the body of a new silence, stores nothing):
 * what it would have held among the last day's events, by kind and target. `created_by` defaults to the key's name; every change is logged with the key's name, and
 * takes effect on this instance at once (the others read the journal within a second).
 */
export function addSilencesRoutes(
  router: Router,
  deps: AdminApiDeps,
  scopes: { read: RequestHandler; silence: RequestHandler },
  json: RequestHandler,
): void {
  const present = (silence: StoredSilence) => presentSilence(silence, deps.clock.now());
  const changed = async (key: string, action: string, silence: StoredSilence): Promise<void> => {
    deps.log.info(`silence ${action} through the admin API`, {
      key,
      silence: silence.id,
      ends_at: iso(silence.endsAt),
    });
    await deps.silences?.refresh();
  };
  const existing = async (id: string): Promise<StoredSilence> => {
    const silence = await deps.store.getSilence(id);
    if (silence === undefined) throw new SwitchyardError('not_found', `no silence ${id}`, { status: 404 });
    return silence;
  };

  router.get('/api/v1/silences', scopes.read, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    rejectUnknown(query, ['status'], 'query parameter');
    const status = query.status ?? 'active';
    if (typeof status !== 'string' || !STATUSES.includes(status)) {
      throw new SwitchyardError('invalid_filter', `status: must be one of ${STATUSES.join(', ')}`, { status: 400 });
    }
    const now = deps.clock.now();
    const found = await deps.store.findSilences(status === 'expired' || status === 'all' ? {} : { notEndedAt: now });
    const items = found.filter((s) => status === 'all' || silenceStatus(s, now) === (status as SilenceStatus));
    res.json({ items: items.map(present) });
  });
  router.get('/api/v1/silences/:id', scopes.read, async (req, res) => {
    res.json(present(await existing(String(req.params.id))));
  });
  const parsed = (body: unknown, key: string, now: number): StoredSilence => {
    const input = isObject(body) && body.created_by === undefined ? { ...body, created_by: key } : body;
    return parseNewSilence(input, { now, id: newId('sil_', now), rules: deps.rules() });
  };
  router.post('/api/v1/silences/preview', scopes.silence, json, async (req, res) => {
    const now = deps.clock.now();
    const silence = parsed(req.body, requestKey(res).name, now);
    const preview = await previewSilence(silence, { store: deps.store, rules: deps.rules(), now });
    res.json({ match: silence.matchers, ...presentPreview(preview) });
  });
  router.post('/api/v1/silences', scopes.silence, json, async (req, res) => {
    const key = requestKey(res).name;
    const now = deps.clock.now();
    const silence = parsed(req.body, key, now);
    await deps.store.createSilence(silence);
    await changed(key, 'created', silence);
    res.status(201).json(present(silence));
  });
  router.patch('/api/v1/silences/:id', scopes.silence, json, async (req, res) => {
    await change(String(req.params.id), req.body, requestKey(res).name, 'changed', (silence) =>
      res.json(present(silence)),
    );
  });
  router.post('/api/v1/silences/:id/expire', scopes.silence, json, async (req, res) => {
    await change(String(req.params.id), { expire: true }, requestKey(res).name, 'expired', (silence) =>
      res.json(present(silence)),
    );
  });

  async function change(
    id: string,
    body: unknown,
    key: string,
    action: string,
    reply: (silence: StoredSilence) => void,
  ): Promise<void> {
    const now = deps.clock.now();
    const request = parseSilenceChange(body, await existing(id), now);
    const updated = await deps.store.updateSilence(id, request, now);
    if (updated === undefined) throw new SwitchyardError('not_found', `no silence ${id}`, { status: 404 });
    await changed(key, action, updated);
    reply(updated);
  }
}

/** A silence as the API shows it: times as ISO 8601 (UTC), its status now, matchers as written. */
export function presentSilence(silence: StoredSilence, now: number) {
  return {
    id: silence.id,
    status: silenceStatus(silence, now),
    match: silence.matchers,
    startsAt: iso(silence.startsAt),
    endsAt: iso(silence.endsAt),
    comment: silence.comment,
    createdBy: silence.createdBy,
    onExpiry: silence.onExpiry,
    createdAt: iso(silence.createdAt),
    updatedAt: iso(silence.updatedAt),
    releasedAt: iso(silence.releasedAt),
  };
}

/** A preview with its times as ISO 8601 (UTC). */
function presentPreview(preview: SilencePreview) {
  return {
    ...preview,
    since: iso(preview.since),
    until: iso(preview.until),
    scannedFrom: iso(preview.scannedFrom),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
