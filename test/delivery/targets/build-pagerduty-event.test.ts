import { describe, expect, it } from 'vitest';
import {
  buildPagerdutyEvent,
  type PagerdutyEvent,
  type PagerdutyTrigger,
} from '../../../src/delivery/targets/build-pagerduty-event.js';
import { MAX_EVENT_BYTES } from '../../../src/delivery/targets/fit-pagerduty-event.js';
import { TOO_DEEP } from '../../../src/templates/limit-depth.js';
import { makeJob, makePagerdutySpec, ROUTING_KEY } from './make-target-spec.js';

const spec = makePagerdutySpec();

function build(event: string, data: unknown, extra: Record<string, unknown> = {}): PagerdutyEvent {
  return buildPagerdutyEvent(spec, makeJob({ event, timestamp: '2026-11-22T10:00:00Z', data, ...extra }));
}

function trigger(event: string, data: unknown, extra: Record<string, unknown> = {}): PagerdutyTrigger {
  const built = build(event, data, extra);
  if (built.event_action !== 'trigger') throw new Error(`expected a trigger, got ${built.event_action}`);
  return built;
}

describe('buildPagerdutyEvent', () => {
  it('triggers with the documented payload: summary, source, severity, timestamp, class, details, client', () => {
    const data = {
      incident_id: 'inc_1',
      severity: 'high',
      title: 'Suspicious admin login',
      host: 'vpn-1',
      environment: 'production',
      url: 'https://console.example.com/incidents/inc_1',
    };
    expect(build('incident.created', data)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'incident:inc_1',
      payload: {
        summary: 'Suspicious admin login',
        source: 'vpn-1',
        severity: 'error',
        timestamp: '2026-11-22T10:00:00.000Z',
        group: 'production',
        class: 'incident.created',
        custom_details: data,
      },
      client: 'Switchyard',
      links: [{ href: 'https://console.example.com/incidents/inc_1', text: 'Open in the monitoring console' }],
    });
  });

  it('resolves incident.resolved and agent.online with the routing key, action and dedup_key only', () => {
    expect(build('incident.resolved', { incident_id: 'inc_1', title: 'Restored' })).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'resolve',
      dedup_key: 'incident:inc_1',
    });
    expect(build('agent.online', { host: 'db-1', agent: { id: 'agt_17' } })).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'resolve',
      dedup_key: 'agent:agt_17',
    });
    expect(build('agent.offline', { host: 'db-1', agent: { id: 'agt_17' } })).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'agent:agt_17',
      payload: { summary: 'Agent offline: db-1', source: 'db-1', severity: 'error' },
    });
  });

  it('never leaves summary or source blank: a phrase for the kind, the agent, then the Switchyard source', () => {
    expect(trigger('threat.detected', { title: '\u0000\r\n ' }).payload).toMatchObject({
      summary: 'Threat detected',
      source: 'monitor',
    });
    expect(trigger('agent.offline', { agent: { id: 'agt_9' } }).payload).toMatchObject({
      summary: 'Agent offline: unknown host',
      source: 'agt_9',
    });
    expect(trigger('incident.created', undefined).payload).toEqual({
      summary: 'New incident',
      source: 'monitor',
      severity: 'error',
      timestamp: '2026-11-22T10:00:00.000Z',
      class: 'incident.created',
    });
  });

  it('clips the summary to 1,024 characters on one line, without splitting a surrogate pair', () => {
    const title = `Line one\nline two ${'🚨'.repeat(2_000)}`;
    const { summary } = trigger('incident.created', { title }).payload;
    expect(summary.length).toBeLessThanOrEqual(1_024);
    expect(summary).toMatch(/^Line one line two 🚨/);
    expect(summary.endsWith('🚨…')).toBe(true);
  });

  it('reads component, group and class where the event has them', () => {
    const data = { component: 'mysql', group: 'prod-db', class: 'disk', environment: 'lab' };
    expect(trigger('compliance.violation', data).payload).toMatchObject({
      component: 'mysql',
      group: 'prod-db',
      class: 'disk',
    });
  });

  it('takes the timestamp from the event, or the receipt time when it cannot be read', () => {
    expect(trigger('threat.detected', {}, { timestamp: '2026-11-22T11:00:00+01:00' }).payload.timestamp).toBe(
      '2026-11-22T10:00:00.000Z',
    );
    expect(trigger('threat.detected', {}, { timestamp: 'yesterday' }).payload.timestamp).toBe(
      '2026-11-22T10:00:01.000Z',
    );
  });

  it('links only an http(s) URL', () => {
    expect(trigger('threat.detected', { url: 'javascript:alert(1)' }).links).toBeUndefined();
    expect(trigger('threat.detected', { url: 'not a url' }).links).toBeUndefined();
    expect(trigger('threat.detected', { link: 'http://console.local/x' }).links).toEqual([
      { href: 'http://console.local/x', text: 'Open in the monitoring console' },
    ]);
  });

  it('wraps data that is not an object, and cuts nesting past 32 levels', () => {
    expect(trigger('threat.detected', ['a', 'b']).payload.custom_details).toEqual({ data: ['a', 'b'] });
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100; level++) deep = { next: deep };
    const json = JSON.stringify(trigger('threat.detected', deep).payload.custom_details);
    expect(json).toContain(TOO_DEEP);
    expect(json).not.toContain('bottom');
  });

  it('keeps the whole event within 512 KB: long strings are clipped first, then the details give way', () => {
    const longStrings = { title: 'Big', log: 'x'.repeat(600_000), host: 'h' };
    const clipped = trigger('threat.detected', longStrings);
    expect(JSON.stringify(clipped).length).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(clipped.payload.custom_details).toEqual({ title: 'Big', log: `${'x'.repeat(1_023)}…`, host: 'h' });

    const manyKeys = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`field_${i}`, i]));
    const noted = trigger('threat.detected', { title: 'Wide', ...manyKeys });
    expect(Buffer.byteLength(JSON.stringify(noted))).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(noted.payload.summary).toBe('Wide');
    expect(noted.payload.custom_details).toEqual({
      switchyard_note: expect.stringMatching(
        /^the event's data \(\d+ bytes\) is over PagerDuty's event size limit; see evt_01TEST in Switchyard$/,
      ),
    });
  });

  it('maps the severity through the target severity_map', () => {
    const mapped = makePagerdutySpec({ severityMap: new Map([['low', 'info']]) });
    const job = makeJob({ event: 'threat.detected', data: { severity: 'Low' } });
    expect(buildPagerdutyEvent(mapped, job)).toMatchObject({ payload: { severity: 'info' } });
  });
});
