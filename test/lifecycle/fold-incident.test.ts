import { describe, expect, it } from 'vitest';
import { foldIncident } from '../../src/lifecycle/fold-incident.js';
import type { IncidentEvent, IncidentRecord } from '../../src/lifecycle/incident-record.js';

let n = 0;
function event(kind: string, fields: Partial<IncidentEvent> = {}): IncidentEvent {
  n += 1;
  return {
    source: 'monitor',
    key: 'incident:inc_1',
    eventId: `evt_${String(n).padStart(3, '0')}`,
    kind,
    receivedAt: 1000 * n,
    title: null,
    severity: null,
    severityRank: -1,
    host: null,
    agent: null,
    ...fields,
  };
}
const fold = (events: readonly IncidentEvent[]): IncidentRecord | undefined =>
  events.reduce<IncidentRecord | undefined>(foldIncident, undefined);

describe('foldIncident', () => {
  it('opens on the first event, resolves on incident.resolved and reopens on a later event', () => {
    const created = event('incident.created', { severity: 'high', severityRank: 3, title: 'Ransomware on fs-02' });
    const open = foldIncident(undefined, created);
    expect(open).toMatchObject({ state: 'open', events: 1, firstEventId: created.eventId, resolvedAt: null });
    const updated = foldIncident(open, event('incident.updated'));
    expect(updated.state).toBe('open');
    const resolving = event('incident.resolved', { title: 'Restored from backup' });
    const resolved = foldIncident(updated, resolving);
    expect(resolved).toMatchObject({ state: 'resolved', resolvedAt: resolving.receivedAt, reopened: 0 });
    const again = foldIncident(resolved, event('incident.updated'));
    expect(again).toMatchObject({ state: 'reopened', resolvedAt: null, reopened: 1, events: 4 });
    expect(foldIncident(again, event('incident.updated')).reopened).toBe(1);
    expect(again.firstEventId).toBe(created.eventId);
    expect(again.firstAt).toBe(created.receivedAt);
  });

  it('resolves an agent when it comes back online, and records a lone resolve as resolved', () => {
    const offline = event('agent.offline', { key: 'agent:ag_7', agent: 'ag_7', host: 'db-1' });
    const online = event('agent.online', { key: 'agent:ag_7' });
    expect(fold([offline, online])).toMatchObject({ state: 'resolved', host: 'db-1', agent: 'ag_7', events: 2 });
    expect(foldIncident(undefined, event('incident.resolved'))).toMatchObject({ state: 'resolved', events: 1 });
  });

  it('keeps the highest severity and the newest one, by the configured rank', () => {
    const record = fold([
      event('incident.created', { severity: 'medium', severityRank: 2 }),
      event('incident.updated', { severity: 'critical', severityRank: 4 }),
      event('incident.updated', { severity: 'low', severityRank: 1 }),
      event('incident.updated'),
    ]);
    expect(record).toMatchObject({ severityHighest: 'critical', severityRank: 4, severityCurrent: 'low' });
  });

  it('keeps the newest title of an event that did not end it, and the newest host and agent given', () => {
    const record = fold([
      event('incident.created', { title: 'Suspicious login', host: 'vpn-1' }),
      event('incident.updated', { title: 'Suspicious login from a new country' }),
      event('incident.resolved', { title: 'Account locked', host: 'vpn-2' }),
    ]);
    expect(record).toMatchObject({ title: 'Suspicious login from a new country', host: 'vpn-2' });
    expect(foldIncident(undefined, event('incident.resolved', { title: 'Closed' })).title).toBe('Closed');
  });

  it('tracks the first and the last event and counts them', () => {
    const events = [event('incident.created'), event('incident.updated'), event('incident.updated')];
    expect(fold(events)).toMatchObject({
      events: 3,
      firstEventId: events[0]?.eventId,
      lastEventId: events[2]?.eventId,
      lastAt: events[2]?.receivedAt,
    });
  });
});
