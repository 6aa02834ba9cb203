import { describe, expect, it } from 'vitest';
import { consoleHref, matchRoute } from '../../console/src/router/match-route.js';
import { matchesFilters } from '../../console/src/pages/event-filters.js';
import { offsetOf } from '../../console/src/pages/sample-event.js';

describe('the console router', () => {
  it('maps paths under /console/ to pages', () => {
    expect(matchRoute('/console/')).toEqual({ page: 'overview' });
    expect(matchRoute('/console')).toEqual({ page: 'overview' });
    expect(matchRoute('/console/events')).toEqual({ page: 'events' });
    expect(matchRoute('/console/events/evt_01M8%2Fx')).toEqual({ page: 'event', id: 'evt_01M8/x' });
    expect(matchRoute('/console/dead-letters')).toEqual({ page: 'dead-letters' });
    expect(matchRoute('/console/silences/')).toEqual({ page: 'silences' });
    expect(matchRoute('/console/rule-tester')).toEqual({ page: 'rule-tester' });
    expect(matchRoute('/console/events/a/b')).toEqual({ page: 'not-found' });
    expect(matchRoute('/console/nope')).toEqual({ page: 'not-found' });
  });

  it('builds hrefs with only the filters that are set', () => {
    expect(consoleHref('events', { kind: 'a.b', q: '', since: undefined })).toBe('/console/events?kind=a.b');
    expect(consoleHref('')).toBe('/console/');
  });
});

describe('live events on a filtered page', () => {
  const event = {
    id: 'evt_1',
    source: 'monitor',
    kind: 'incident.created',
    severity: 'high',
    occurredAt: '',
    receivedAt: '',
    rulesVersion: '',
    matchedRoutes: [],
    title: 'Disk FULL on db-1',
  };
  it('joins only when it matches every filter, and never a page looking at the past', () => {
    expect(matchesFilters(event, {})).toBe(true);
    expect(matchesFilters(event, { kind: 'incident.created', severity: 'high', q: 'disk full' })).toBe(true);
    expect(matchesFilters(event, { severity: 'low' })).toBe(false);
    expect(matchesFilters(event, { source: 'other' })).toBe(false);
    expect(matchesFilters(event, { q: 'cpu' })).toBe(false);
    expect(matchesFilters(event, { until: '2026-11-22' })).toBe(false);
    // A live event's summary says nothing of its deliveries: with target or state set, none joins live.
    expect(matchesFilters(event, { target: 'receiver' })).toBe(false);
    expect(matchesFilters(event, { state: 'dead' })).toBe(false);
  });
});

describe('offsetOf', () => {
  it('finds a 1-based line and column in the text', () => {
    const text = 'ab\ncdef\ng';
    expect(offsetOf(text, 1, 1)).toBe(0);
    expect(offsetOf(text, 2, 3)).toBe(5);
    expect(offsetOf(text, 3, 1)).toBe(8);
    expect(offsetOf(text, 9, 1)).toBe(text.length);
  });
});
