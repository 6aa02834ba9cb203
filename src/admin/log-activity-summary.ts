import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { runEvery } from '../noise/run-every.js';
import type { Metrics } from './metrics.js';
import { summarizeActivity, type ActivityTotals } from './summarize-activity.js';

export const ACTIVITY_SUMMARY = 'activity summary';

/**
 * Every `intervalMs` (a minute by default), one `info` line with what the daemon did meanwhile, read from the
 * counters /metrics exposes: at `info` an operator sees that events come in and go out without a line per
 * event, which stays at `debug` (a storm would write thousands a second). No line when nothing happened.
 */
export function logActivitySummary(deps: {
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly clock: Clock;
  readonly intervalMs?: number | undefined;
}): () => Promise<void> {
  const { metrics, log, clock } = deps;
  // The registry is the daemon's own and new: every counter starts at zero with it.
  let before: ActivityTotals = { received: 0, duplicates: 0, rejected: 0, delivered: 0, failed: 0, dead: 0, held: 0 };
  let since = clock.now();
  const pass = async (): Promise<void> => {
    const after = await readTotals(metrics);
    const now = clock.now();
    const summary = summarizeActivity(before, after, (now - since) / 1000);
    before = after;
    since = now;
    if (summary !== undefined) log.info(ACTIVITY_SUMMARY, { ...summary });
  };
  const job = runEvery(deps.intervalMs ?? 60_000, pass, log, 'summarizing activity failed; retrying');
  return () => job.stop();
}

async function readTotals(metrics: Metrics): Promise<ActivityTotals> {
  const events = 'switchyard_events_received_total';
  const attempts = 'switchyard_delivery_attempts_total';
  const received = await metrics.total(events, { outcome: 'accepted' });
  const duplicates = await metrics.total(events, { outcome: 'duplicate' });
  return {
    received,
    duplicates,
    rejected: (await metrics.total(events)) - received - duplicates,
    delivered: await metrics.total(attempts, { outcome: 'delivered' }),
    failed: await metrics.total(attempts, { outcome: 'retry' }),
    dead: await metrics.total(attempts, { outcome: 'dead' }),
    held: await metrics.total('switchyard_deliveries_held_total'),
  };
}
