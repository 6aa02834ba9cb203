import type { IncomingMessage, ServerResponse } from 'node:http';
import { SwitchyardError } from '../switchyard-error.js';
import { acceptEvent } from './accept-event.js';
import { bodyFormatError } from './body-format-error.js';
import { KNOWN_EVENT_KINDS } from './envelope.js';
import { eventKindLabel } from './event-kind-label.js';
import type { IngestContext } from './ingest-context.js';
import { eventTitle } from './event-title.js';
import { parseBody, validateEnvelope } from './parse-envelope.js';
import { createTurnEnd } from './at-turn-end.js';
import { readBody } from './read-body.js';
import { sendError, sendJson } from './send-json.js';
import { parseSignatureHeader, verifySignature } from './verify-signature.js';

export const WEBHOOK_PREFIX = '/webhooks/';

/**
 * `POST /webhooks/<source>`, served straight from node:http rather than through express: express 5's
 * router alone cost about 5x in requests/s on this machine (issue 2, Performance), and this is the one path
 * where throughput matters. Order of checks: source, method, content type and coding, signature form, body size,
 * signature, and only then JSON parsing.
 */
export function createIngestHandler(ctx: IngestContext): (req: IncomingMessage, res: ServerResponse) => void {
  const atTurnEnd = createTurnEnd();
  const reject = (res: ServerResponse, source: string, error: SwitchyardError, close = false, kind?: string): void => {
    const status = error.status ?? 500;
    const label = ctx.config.sources.has(source) ? source : '(unknown)';
    if (status === 401) ctx.sourceWatch?.rejected(source);
    ctx.metrics.increment('switchyard_events_received_total', {
      source: label,
      kind: eventKindLabel(kind),
      outcome: error.code,
    });
    // A journal outage is logged once where commits fail (create-ingest-commit.ts), not for every webhook.
    (error.code === 'journal_unavailable' ? ctx.log.debug : ctx.log.warn)('webhook rejected', {
      source,
      status,
      reason: error.code,
      detail: error.message,
      ...(kind === undefined ? {} : { kind }),
    });
    const retry: Record<string, string> = status === 503 ? { 'retry-after': '5' } : {};
    sendError(res, status, error.code, error.message, retry, close);
  };

  return (req, res) => {
    const url = req.url ?? '';
    const end = url.indexOf('?');
    const name = decodeSegment((end === -1 ? url : url.slice(0, end)).slice(WEBHOOK_PREFIX.length));
    const source = name === undefined ? undefined : ctx.config.sources.get(name);
    if (source === undefined) {
      return reject(
        res,
        (name ?? '').slice(0, 100),
        new SwitchyardError('unknown_source', 'no webhook source is configured at this path', { status: 404 }),
        true,
      );
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return reject(
        res,
        source.name,
        new SwitchyardError('method_not_allowed', 'webhooks are delivered with POST', { status: 405 }),
        true,
      );
    }
    const formatError = bodyFormatError(req.headers['content-type'], req.headers['content-encoding']);
    if (formatError !== undefined) {
      if (formatError.code === 'unsupported_content_encoding') res.setHeader('accept-encoding', 'identity');
      return reject(res, source.name, formatError, true);
    }
    const header = req.headers['x-service-signature'];
    const signature = parseSignatureHeader(Array.isArray(header) ? undefined : header);
    if (signature === undefined) {
      const what = header === undefined ? 'missing' : 'malformed (expected sha256=<64 lowercase hex digits>)';
      return reject(
        res,
        source.name,
        new SwitchyardError('invalid_signature', `X-Service-Signature is ${what}`, { status: 401 }),
        true,
      );
    }
    readBody(req, ctx.config.maxBodyBytes, ctx.config.bodyTimeoutMs, ctx.bodyBudget, atTurnEnd).then(
      async (body) => {
        if (!verifySignature(body, signature, source.secrets)) {
          return reject(
            res,
            source.name,
            new SwitchyardError('invalid_signature', 'X-Service-Signature does not match the body', { status: 401 }),
          );
        }
        // Parsed here rather than in acceptEvent, so that a later refusal (too old, journal down) is
        // counted under the event's kind.
        let kind: string | undefined;
        try {
          const parsed = parseBody(body);
          const envelope = validateEnvelope(parsed);
          kind = envelope.event;
          await ctx.silences?.upToDate();
          const accepted = acceptEvent(ctx, source, envelope, body, eventTitle(parsed));
          const result = await ctx.commit(accepted.item);
          sendJson(res, 200, { id: result.eventId, duplicate: result.duplicate, deliveries: result.deliveries });
          recordAccepted(ctx, source.name, envelope.event, accepted, result);
          ctx.sourceWatch?.seen(source.name, accepted.item.event.receivedAt);
        } catch (error) {
          reject(res, source.name, asCoded(error), false, kind);
        }
      },
      (error: unknown) => reject(res, source.name, asCoded(error), true),
    );
  };
}

function recordAccepted(
  ctx: IngestContext,
  source: string,
  kind: string,
  { decision, silencedBy, item }: ReturnType<typeof acceptEvent>,
  result: Awaited<ReturnType<IngestContext['commit']>>,
): void {
  const { metrics, log } = ctx;
  const kindLabel = eventKindLabel(kind);
  if (result.duplicate) {
    metrics.increment('switchyard_events_received_total', { source, kind: kindLabel, outcome: 'duplicate' });
    log.info('duplicate event', { id: result.eventId, source, kind, duplicate: true });
    return;
  }
  metrics.increment('switchyard_events_received_total', { source, kind: kindLabel, outcome: 'accepted' });
  // Held back at ingest (silenced, muted, grouped), or by a throttle, which decides in the journal.
  const held = new Map<string, number>();
  item.holds?.forEach((hold) => hold && held.set(hold.state, (held.get(hold.state) ?? 0) + 1));
  const followed = result.followed ?? [];
  for (const { target, hold } of item.follow ?? [])
    if (hold && followed.includes(target)) held.set(hold.state, (held.get(hold.state) ?? 0) + 1);
  item.groups?.forEach((group, i) => group && !item.holds?.[i] && held.set('grouped', (held.get('grouped') ?? 0) + 1));
  if (result.suppressed !== undefined && result.suppressed > 0) held.set('suppressed', result.suppressed);
  let heldCount = 0;
  for (const [state, count] of held) {
    metrics.increment('switchyard_deliveries_held_total', { state }, count);
    heldCount += count;
  }
  metrics.increment('switchyard_deliveries_queued_total', {}, result.deliveries - heldCount);
  const severity = decision.severity;
  if (!KNOWN_EVENT_KINDS.has(kind)) {
    metrics.increment('switchyard_unknown_event_kind_total');
    log.warn('unknown event kind, routed as usual', { id: result.eventId, source, kind });
  }
  if (severity.unknown) {
    metrics.increment('switchyard_unknown_severity_total');
    log.warn('unknown severity, routed as the highest level', {
      id: result.eventId,
      source,
      kind,
      severity: severity.raw,
      treated_as: severity.level,
    });
  }
  if (decision.matchedRoutes.length === 0 && !decision.usedFallback && followed.length === 0) {
    metrics.increment('switchyard_events_unrouted_total');
    log.warn('event matched no route and there is no fallback: journaled, delivered nowhere', {
      id: result.eventId,
      source,
      kind,
    });
  }
  // One line per event at `debug` (issue 11: about 8 µs of CPU each at 64 connections): the journal keeps
  // every event (`switchyard deliveries`, the admin API) and the metrics count them. A silenced event stays
  // at `info`, so an operator sees what a silence holds back. docs/operations.md, Logs.
  (silencedBy === undefined ? log.debug : log.info)('event received', {
    id: result.eventId,
    source,
    kind,
    severity: severity.raw,
    routes: decision.matchedRoutes,
    fallback: decision.usedFallback,
    targets: decision.targets,
    deliveries: result.deliveries,
    ...(followed.length > 0 && { followed }),
    ...(silencedBy !== undefined && { silenced_by: silencedBy }),
  });
}

function decodeSegment(segment: string): string | undefined {
  if (segment.length === 0 || segment.includes('/')) return undefined;
  // Without an escape there is nothing to decode (and nothing to fail): the usual source name.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function asCoded(error: unknown): SwitchyardError {
  if (error instanceof SwitchyardError) return error;
  return new SwitchyardError('internal_error', 'the event could not be processed', { status: 500, cause: error });
}
