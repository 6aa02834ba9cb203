import type { Clock } from '../clock.js';
import { RESOLVING_KINDS } from '../lifecycle/choose-situation.js';
import type { Logger } from '../log/logger.js';
import type { Store, StoredEvent } from '../store/store.js';
import type { StoredSilence } from '../store/stored-silence.js';
import { runEvery } from './run-every.js';
import { selectUnresolved, type HeldEventFacts } from './select-unresolved.js';

/** How many held deliveries one ended silence releases at most; the rest stay silenced (and are logged). */
const MAX_RELEASED = 10_000;

/**
 * For silences with `on_expiry: deliver_unresolved`: once one has ended, re-queues the deliveries it held whose
 * incident or agent is still open (selectUnresolved), once, even with several instances (releaseSilence
 * marks the silence in the same transaction). Checks every `intervalMs`; a failed pass is retried at the next.
 */
export function startSilenceReleaser(options: {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  /** Wakes the delivery engine after a release. */
  readonly wake: () => void;
  readonly intervalMs?: number;
}): { stop: () => Promise<void> } {
  const { store, log, clock } = options;
  const pass = async (): Promise<void> => {
    for (const silence of await store.findSilences({ unreleasedAt: clock.now() })) await release(silence);
  };
  const release = async (silence: StoredSilence): Promise<void> => {
    const held = await store.findDeliveries({ heldBy: silence.id, state: 'silenced', limit: MAX_RELEASED });
    const events = new Map<string, HeldEventFacts>();
    for (const id of new Set(held.map((d) => d.eventId))) {
      const event = await store.getEvent(id);
      if (event !== undefined) events.set(id, facts(event));
    }
    const resolutions: HeldEventFacts[] = [];
    for (const kind of RESOLVING_KINDS) {
      const found = await store.findEvents({ kind, since: silence.startsAt, limit: MAX_RELEASED });
      for (const summary of found) {
        const event = await store.getEvent(summary.id);
        if (event !== undefined) resolutions.push(facts(event));
      }
    }
    const chosen = selectUnresolved(
      held.flatMap((d) => {
        const event = events.get(d.eventId);
        return event === undefined ? [] : [{ deliveryId: d.id, event }];
      }),
      resolutions,
    );
    const released = await store.releaseSilence(silence.id, chosen, clock.now());
    if (released === undefined) return; // another instance did it
    log.info('silence ended: deliveries of what is still open are sent', {
      silence: silence.id,
      held: held.length,
      released,
      ...(held.length >= MAX_RELEASED && { note: `only the first ${MAX_RELEASED} held deliveries were considered` }),
    });
    if (released > 0) options.wake();
  };
  return runEvery(
    options.intervalMs ?? 5_000,
    pass,
    log,
    'releasing the deliveries of an ended silence failed; retrying',
  );
}

function facts(event: StoredEvent): HeldEventFacts {
  let data: unknown = null;
  try {
    data = (JSON.parse(event.body.toString('utf8')) as { data?: unknown }).data ?? null;
  } catch {
    // Ingest stored only valid envelopes; an unreadable one simply has no key.
  }
  return { kind: event.kind, data, receivedAt: event.receivedAt };
}
