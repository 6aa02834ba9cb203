import { describe, expect, it } from 'vitest';
import { defaultTeamsMessage } from '../../../src/delivery/targets/default-teams-message.js';
import { jsonStrings } from '../../docs/support/render-doc-target.js';
import { makeJob } from './make-target-spec.js';

interface Card {
  $schema: string;
  type: string;
  version: string;
  body: [
    { type: string; style: string; items: [{ text: string }] },
    { type: string; facts: { title: string; value: string }[] },
    ...{ type: string; text: string }[],
  ];
}

function card(event: string, data: Record<string, unknown>, timestamp = '2026-11-22T10:00:00Z', suppressedCount = 0) {
  const built = defaultTeamsMessage({ ...makeJob({ event, timestamp, data }), suppressedCount }) as unknown as Card;
  const [band, facts, ...rest] = built.body;
  return {
    built,
    headline: band.items[0].text,
    style: band.style,
    facts: facts.facts.map(({ title, value }) => `${title}: ${value}`),
    rest: rest.map((element) => element.text),
  };
}

describe('defaultTeamsMessage', () => {
  it('is an Adaptive Card: the headline on a band in the severity colour, the facts, and the footer', () => {
    const { built, headline, style, facts, rest } = card('incident.created', {
      incident_id: 'inc_123',
      severity: 'critical',
      title: 'Ransomware on host-7',
      hostname: 'host-7',
      agent_id: 'agt_9',
      policy: 'edr-default',
      verdict: 'malicious',
    });
    expect(built).toMatchObject({ type: 'AdaptiveCard', version: '1.4', $schema: expect.stringContaining('adaptive') });
    expect(headline).toBe('🚨 Ransomware on host-7');
    expect(style).toBe('attention');
    expect(facts).toEqual([
      'Severity: critical',
      'Event: incident.created',
      'Incident: inc\\_123',
      'Host: host-7',
      'Agent: agt\\_9',
      'Policy: edr-default',
      'Verdict: malicious',
      'Time: 2026-11-22T10:00:00Z',
    ]);
    expect(rest).toEqual(['Switchyard · evt\\_01TEST · from monitor']);
  });

  it.each([
    ['agent.offline', { hostname: 'café-01' }, 'Agent offline: café-01'],
    ['incident.resolved', { incident_id: 'inc-9' }, 'Incident inc-9 resolved'],
    ['threat.detected', { host: 'db-2' }, 'Threat detected on db-2'],
    ['backup.failed', { hostname: 'nas' }, 'Event backup.failed on nas'],
  ])('without a title, %s %j reads "%s"', (event, data, title) => {
    expect(card(event, data).headline).toMatch(new RegExp(`^\\S+ ${title}$`));
  });

  it.each([
    ['incident.created', 'high', '🔴', 'attention'],
    ['incident.created', 'MEDIUM', '🟠', 'warning'],
    ['incident.created', 'low', '🟡', 'warning'],
    ['incident.created', 'info', '🔵', 'accent'],
    ['incident.created', 'sev0', '⚠️', 'attention'],
    ['incident.created', undefined, '⚪', 'emphasis'],
    ['incident.resolved', 'critical', '✅', 'good'],
    ['agent.online', undefined, '✅', 'good'],
  ])('%s with severity %s shows %s on a %s band', (event, severity, emoji, style) => {
    const shown = card(event, severity === undefined ? {} : { severity });
    expect(shown.headline.startsWith(`${emoji} `)).toBe(true);
    expect(shown.style).toBe(style);
  });

  it('escapes every event-derived string, so links, formatting, mentions and new blocks stay text', () => {
    const { built, headline, facts } = card(
      'incident.created',
      {
        title: '[click](http://evil) <at>x</at> **bold**',
        severity: '_sev_',
        incident_id: '- item',
        hostname: 'a\n\n# heading',
        agent_id: '{{DATE(2026-11-22T10:00:00Z)}}',
      },
      '1. <b>',
    );
    expect(headline).toBe('⚠️ \\[click\\]\\(http://evil\\) \\<at\\>x\\</at\\> \\*\\*bold\\*\\*');
    expect(facts).toEqual(
      expect.arrayContaining([
        'Severity: \\_sev\\_',
        'Incident: \\- item',
        'Host: a # heading', // one line: `#` starts no heading there
        'Agent: \\{\\{DATE\\(2026-11-22T10:00:00Z\\)\\}\\}',
        'Time: 1\\. \\<b\\>',
      ]),
    );
    for (const text of jsonStrings(built)) expect(text).not.toMatch(/(?<!\\)[[<*_]/);
  });

  it('says what a throttle held back before it', () => {
    expect(card('agent.offline', { host: 'h' }, 't', 1).facts).toContain(
      'Throttled: 1 similar event was suppressed since the last message',
    );
    expect(card('agent.offline', { host: 'h' }, 't', 49).facts).toContain(
      'Throttled: 49 similar events were suppressed since the last message',
    );
    expect(card('agent.offline', { host: 'h' }).facts.join()).not.toContain('Throttled');
  });

  it('clips very long strings by code point', () => {
    const { headline, facts } = card('incident.created', { title: '😀'.repeat(100_000), host: 'h'.repeat(100_000) });
    expect(Array.from(headline)).toHaveLength('⚪ '.length + 150);
    expect(headline.endsWith('😀…')).toBe(true);
    expect(facts.find((fact) => fact.startsWith('Host: '))).toBe(`Host: ${'h'.repeat(299)}…`);
  });
});

describe('the default Teams card of a digest', () => {
  const digest = (count: number, events: unknown[], key = 'brute-force') =>
    defaultTeamsMessage(
      makeJob({
        event: 'switchyard.digest',
        timestamp: '2026-11-24T10:00:30Z',
        data: { title: `${count} events grouped by storm${key === '' ? '' : `: ${key}`}` },
        group: { key, count, omitted: Math.max(0, count - events.length), events },
      }),
    ) as unknown as { body: { type: string; text?: string; items?: { text: string }[]; facts?: unknown[] }[] };

  it('shows the count and key, the first 20 events as a list, and how many more', () => {
    const events = Array.from({ length: 100 }, (_, n) => ({
      event: 'threat.detected',
      data: { title: `Login burst ${n}`, host: 'vpn-1' },
    }));
    const { body } = digest(500, events);
    expect(body[0]?.items?.[0]?.text).toBe('📦 500 events grouped by storm: brute-force');
    expect(body[1]?.facts).toEqual([
      { title: 'Events', value: '500' },
      { title: 'Group', value: 'brute-force' },
    ]);
    const list = body[2]?.text?.split('\n') ?? [];
    expect(list).toHaveLength(20);
    expect(list[0]).toBe('- threat.detected: Login burst 0');
    expect(body[3]?.text).toBe('_and 480 more_');
    expect(body[4]?.text).toBe('Switchyard digest · evt\\_01TEST · 500 events');
  });

  it('escapes each listed event on its own line, so none can end the list or add a link', () => {
    const events = [{ event: 'threat.detected', data: { title: 'a\n\n# b [x](http://evil)' } }];
    const { body } = digest(1, events, '');
    // The line breaks are gone: `#` in the middle of a line starts no heading.
    expect(body[1]?.facts).toEqual([{ title: 'Events', value: '1' }]);
    expect(body[2]?.text).toBe('- threat.detected: a # b \\[x\\]\\(http://evil\\)');
    expect(body.map((element) => element.text)).not.toContain('_and 0 more_');
  });
});
