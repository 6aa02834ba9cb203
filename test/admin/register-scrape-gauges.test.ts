import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { registerScrapeGauges } from '../../src/admin/register-scrape-gauges.js';
import { SWITCHYARD_METRICS } from '../../src/admin/switchyard-metrics.js';
import type { DeliveryEngine } from '../../src/delivery/delivery-engine.js';
import type { LiveRules } from '../../src/rules/create-live-rules.js';
import type { Store } from '../../src/store/store.js';

type Counts = Awaited<ReturnType<Store['countByTarget']>>;

/**
 * The gauges over a journal whose counts the test hands out, one count at a time; `countByTarget` to give a
 * store of its own making.
 */
function gauges(countByTarget?: () => Promise<Counts>) {
  const waiting: { resolve: (counts: Counts) => void; reject: (error: Error) => void }[] = [];
  const store = {
    countByTarget: countByTarget ?? (() => new Promise<Counts>((resolve, reject) => waiting.push({ resolve, reject }))),
  } as unknown as Store;
  const engine = { status: () => [] } as unknown as DeliveryEngine;
  const rules = { current: () => ({ version: 'v1' }), status: () => ({ ok: true }) } as unknown as LiveRules;
  const metrics = createMetrics(SWITCHYARD_METRICS);
  registerScrapeGauges(metrics, { store, engine, rules });
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  return { metrics, waiting, nextTurn };
}

describe('registerScrapeGauges', () => {
  it('counts the journal once for scrapes that arrive while it counts, and again for a later scrape', async () => {
    const { metrics, waiting, nextTurn } = gauges();
    const first = metrics.render();
    const second = metrics.render();
    await nextTurn();
    expect(waiting).toHaveLength(1);
    waiting[0]?.resolve([{ target: 'tickets', state: 'pending', count: 3 }]);
    for (const text of await Promise.all([first, second])) {
      expect(text).toContain('switchyard_deliveries{target="tickets",state="pending"} 3');
    }

    const third = metrics.render();
    await nextTurn();
    expect(waiting).toHaveLength(2);
    waiting[1]?.resolve([{ target: 'tickets', state: 'delivered', count: 3 }]);
    const text = await third;
    expect(text).toContain('switchyard_deliveries{target="tickets",state="delivered"} 3');
    expect(text).not.toContain('state="pending"');
  });

  it('keeps the counts a scrape set while that scrape still renders, though a later one has begun to count', async () => {
    const { metrics, waiting, nextTurn } = gauges();
    // A collector after the gauges' that takes its time (the pruner's reads the journal's size).
    let release = (): void => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    metrics.onScrape(() => slow);
    const first = metrics.render();
    await nextTurn();
    waiting[0]?.resolve([{ target: 'tickets', state: 'pending', count: 3 }]);
    await nextTurn(); // the first scrape now waits for the slow collector
    const second = metrics.render();
    await nextTurn(); // the second counts
    expect(waiting).toHaveLength(2);
    release();
    expect(await first).toContain('switchyard_deliveries{target="tickets",state="pending"} 3');
    waiting[1]?.resolve([{ target: 'tickets', state: 'pending', count: 4 }]);
    expect(await second).toContain('switchyard_deliveries{target="tickets",state="pending"} 4');
  });

  it('renders without the series when the store throws instead of rejecting', async () => {
    const { metrics } = gauges(() => {
      throw new Error('journal thread could not start');
    });
    const text = await metrics.render();
    expect(text).not.toContain('switchyard_deliveries{');
    expect(text).toContain('switchyard_rules_last_reload_ok 1');
  });

  it('renders without the series when the journal cannot count, and counts again at the next scrape', async () => {
    const { metrics, waiting, nextTurn } = gauges();
    const failed = metrics.render();
    await nextTurn();
    waiting[0]?.reject(new Error('journal closed'));
    const text = await failed;
    expect(text).not.toContain('switchyard_deliveries{');
    expect(text).toContain('switchyard_rules_last_reload_ok 1');

    const next = metrics.render();
    await nextTurn();
    expect(waiting).toHaveLength(2);
    waiting[1]?.resolve([]);
    await next;
  });
});
