import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { newId } from '../store/new-id.js';
import type { Store } from '../store/store.js';
import { buildDigestEvent } from './build-digest-event.js';
import { runEvery } from './run-every.js';

/**
 * Sends due digests: every `intervalMs`, each open digest whose time has come becomes one `switchyard.digest`
 * event and one pending delivery to its target, in one transaction (sendDigest), by whichever instance gets
 * there first. A digest left open by a killed instance is due all the same, so another instance (or this one
 * after a restart) sends it. A failed pass is logged and retried at the next.
 */
export function startDigestSender(options: {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  readonly rulesVersion: () => string;
  /** Wakes the delivery engine after a digest was queued. */
  readonly wake: () => void;
  readonly intervalMs?: number;
}): { stop: () => Promise<void> } {
  const { store, log, clock } = options;
  const pass = async (): Promise<void> => {
    for (const id of await store.findDueDigests(clock.now(), 50)) {
      const now = clock.now();
      const delivery = await store.sendDigest(id, now, (digest, events) =>
        buildDigestEvent(digest, events, { id: newId('evt_', now), now, rulesVersion: options.rulesVersion() }),
      );
      if (delivery === undefined) continue; // another instance sent it
      log.info('digest queued', { digest: id, delivery });
      options.wake();
    }
  };
  return runEvery(options.intervalMs ?? 1_000, pass, log, 'sending due digests failed; retrying');
}
