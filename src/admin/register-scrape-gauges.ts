import type { DeliveryEngine } from '../delivery/delivery-engine.js';
import type { LiveRules } from '../rules/create-live-rules.js';
import type { DeliveryCount } from '../store/delivery-state.js';
import type { Store } from '../store/store.js';
import type { Metrics } from './metrics.js';

const CIRCUIT_STATES = ['closed', 'open', 'half-open'] as const;

/** Gauges read at scrape time, from the journal, the engine and the rules, so they cost nothing in between. */
export function registerScrapeGauges(
  metrics: Metrics,
  sources: {
    readonly store: Store;
    readonly engine: DeliveryEngine;
    readonly rules: LiveRules;
  },
): void {
  // On a large SQLite journal the count takes a while (a slice of deliveries per turn of the event loop):
  // scrapes that arrive meanwhile (two Prometheus servers) share it instead of each starting another.
  let counting: Promise<DeliveryCount[]> | undefined;
  const countDeliveries = () =>
    // A store that throws rather than rejecting fails this gauge, not the scrape.
    (counting ??= new Promise<DeliveryCount[]>((resolve) => resolve(sources.store.countByTarget())).finally(() => {
      counting = undefined;
    }));
  metrics.onScrape(async () => {
    // Journal unreachable: the series are absent this scrape (readyz says why), the rest still renders.
    const counts = await countDeliveries().catch(() => []);
    // Reset only now: a scrape still rendering (another collector awaits) keeps the counts it set meanwhile.
    metrics.reset('switchyard_deliveries');
    for (const { target, state, count } of counts) metrics.set('switchyard_deliveries', { target, state }, count);
    metrics.reset('switchyard_target_in_flight');
    metrics.reset('switchyard_target_awaiting_record');
    metrics.reset('switchyard_target_circuit_state');
    for (const { target, inFlight, awaitingRecord, circuit } of sources.engine.status()) {
      metrics.set('switchyard_target_in_flight', { target }, inFlight);
      metrics.set('switchyard_target_awaiting_record', { target }, awaitingRecord);
      for (const state of CIRCUIT_STATES) {
        metrics.set('switchyard_target_circuit_state', { target, state }, state === circuit ? 1 : 0);
      }
    }
    metrics.reset('switchyard_rules_info');
    metrics.set('switchyard_rules_info', { version: sources.rules.current().version }, 1);
    metrics.set('switchyard_rules_last_reload_ok', {}, sources.rules.status().ok ? 1 : 0);
  });
}
