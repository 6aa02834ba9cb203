import { describe, expect, it } from 'vitest';
import { summarizeIncidentTargets } from '../../src/lifecycle/summarize-incident-targets.js';
import type { DeliveryState } from '../../src/store/delivery-state.js';
import type { StoredDelivery } from '../../src/store/store.js';

const events = [
  { id: 'evt_1', kind: 'incident.created' },
  { id: 'evt_2', kind: 'incident.updated' },
  { id: 'evt_3', kind: 'incident.resolved' },
  { id: 'evt_4', kind: 'incident.updated' },
  { id: 'evt_5', kind: 'incident.updated' },
].map((e) => ({ ...e, severity: null, title: null, receivedAt: 0 }));

let n = 0;
function delivery(eventId: string, target: string, state: DeliveryState, key?: string): StoredDelivery {
  n += 1;
  return {
    id: `dlv_${n}`,
    eventId,
    target,
    state,
    attempts: 1,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: 0,
    updatedAt: 0,
    ...(key && { correlationKey: key }),
  };
}

describe('summarizeIncidentTargets', () => {
  it('counts delivered requests per target as create, update and resolve, starting afresh after a resolve', () => {
    const summaries = summarizeIncidentTargets({
      events,
      deliveries: [
        delivery('evt_1', 'jira', 'delivered', 'incident:1'),
        delivery('evt_1', 'slack', 'dead'),
        delivery('evt_2', 'jira', 'delivered', 'incident:1'),
        delivery('evt_3', 'jira', 'delivered', 'incident:1'),
        delivery('evt_4', 'jira', 'delivered', 'incident:1'),
        delivery('evt_5', 'jira', 'pending', 'incident:1'),
      ],
      references: [
        { target: 'jira', key: 'incident:1', values: { issue: 'SOC-7' }, updatedAt: 0 },
        { target: 'jira', key: 'incident:2', values: { issue: 'SOC-8' }, updatedAt: 0 },
      ],
    });
    expect(summaries).toEqual([
      {
        target: 'jira',
        created: 2,
        updated: 1,
        resolved: 1,
        lastDelivery: { id: 'dlv_6', eventId: 'evt_5', state: 'pending' },
        references: { issue: 'SOC-7' },
      },
      {
        target: 'slack',
        created: 0,
        updated: 0,
        resolved: 0,
        lastDelivery: { id: 'dlv_2', eventId: 'evt_1', state: 'dead' },
        references: null,
      },
    ]);
  });

  it('gives nothing for an incident without deliveries', () => {
    expect(summarizeIncidentTargets({ events, deliveries: [], references: [] })).toEqual([]);
  });
});
