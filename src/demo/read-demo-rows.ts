import type { Store, StoredDelivery } from '../store/store.js';
import type { DemoEvent } from './demo-events.js';
import type { DemoRow } from './demo-row.js';

/** The report's rows: each event's deliveries (by target name) with their attempts' answers, events in order sent. */
export async function readDemoRows(
  events: readonly DemoEvent[],
  deliveriesPerEvent: readonly (readonly StoredDelivery[])[],
  journal: Store,
): Promise<DemoRow[]> {
  const rows: DemoRow[] = [];
  for (const [index, deliveries] of deliveriesPerEvent.entries()) {
    const event = events[index];
    if (event === undefined) continue;
    const severity = event.data.severity;
    for (const delivery of deliveries) {
      const attempts = await journal.listAttempts(delivery.id);
      rows.push({
        kind: event.event,
        severity: typeof severity === 'string' ? severity : null,
        target: delivery.target,
        state: delivery.state,
        attempts: delivery.attempts,
        answers: attempts.map((a) => a.statusCode ?? a.outcome),
      });
    }
  }
  return rows;
}
