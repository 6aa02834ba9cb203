import type { Envelope } from './envelope.js';
import { SWITCHYARD_SOURCE } from '../noise/switchyard-source.js';
import { acceptEvent } from './accept-event.js';
import { eventTitle } from './event-title.js';
import type { IngestContext } from './ingest-context.js';

/**
 * Journals and routes an event Switchyard raises itself (`switchyard.*`, source `switchyard`) through the same
 * path as an upstream's: rules, silences, throttles, the group commit. Resolves once it is durable.
 */
export function raiseEvent(ctx: IngestContext): (envelope: Envelope) => Promise<void> {
  return async (envelope) => {
    const body = Buffer.from(JSON.stringify(envelope));
    await ctx.silences?.upToDate();
    const { item } = acceptEvent(ctx, SWITCHYARD_SOURCE, envelope, body, eventTitle(envelope));
    const result = await ctx.commit(item);
    ctx.log.warn('switchyard raised an event', { id: result.eventId, kind: envelope.event, targets: item.targets });
  };
}
