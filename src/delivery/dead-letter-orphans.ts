import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';

/**
 * Pending deliveries of a target nobody can send to (the rules no longer define it: removed, then the daemon
 * restarted; or replayed before the target was put back) are dead-lettered, loudly, so they are visible and
 * replayable instead of waiting forever. Targets still draining after a reload count as known. With
 * `quietSince` (a shared journal), only targets that no instance has touched since: while rules roll out one
 * instance at a time, another instance may know a target this one does not yet, and be delivering to it.
 */
export async function deadLetterOrphans(
  store: Store,
  log: Logger,
  known: (target: string) => boolean,
  now: number,
  quietSince?: number,
): Promise<void> {
  for (const { target, state } of await store.countByTarget()) {
    if (state !== 'pending' || known(target)) continue;
    const reason = `target "${target}" is not in the rules; replay these deliveries once it is back`;
    const count = await store.deadLetterTarget(target, reason, now, quietSince);
    if (count > 0) {
      log.error('pending deliveries of a target that is not in the rules were dead-lettered', { target, count });
    }
  }
}
