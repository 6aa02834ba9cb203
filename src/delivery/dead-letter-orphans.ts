import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';

/** On a shared journal, how long no instance may have declared a target before its deliveries are orphans. */
const SHARED_ORPHAN_QUIET_MS = 5 * 60_000;

/**
 * Pending deliveries of a target nobody can send to (the rules no longer define it: removed, then the daemon
 * restarted; or replayed before the target was put back) are dead-lettered, loudly, so they are visible and
 * replayable instead of waiting forever. Targets still draining after a reload count as known. On a shared
 * journal this instance first declares the targets it knows, and dead-letters another only if no instance has
 * declared it for 5 minutes (five sweeps): rules roll out one instance at a time, and the others deliver
 * meanwhile.
 */
export async function deadLetterOrphans(
  store: Store,
  log: Logger,
  knownTargets: Iterable<string>,
  now: number,
): Promise<void> {
  const known = new Set(knownTargets);
  const shared = store.sharedTargets;
  await shared?.declareTargets([...known], now);
  for (const target of await store.pendingTargets()) {
    if (known.has(target)) continue;
    const reason = `target "${target}" is not in the rules; replay these deliveries once it is back`;
    const count =
      shared === undefined
        ? await store.deadLetterTarget(target, reason, now)
        : await shared.deadLetterUnknownTarget(target, reason, now, now - SHARED_ORPHAN_QUIET_MS);
    if (count > 0) {
      log.error('pending deliveries of a target that is not in the rules were dead-lettered', { target, count });
    }
  }
}
