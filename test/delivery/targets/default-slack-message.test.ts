import { describe, expect, it } from 'vitest';
import { defaultSlackMessage } from '../../../src/delivery/targets/default-slack-message.js';
import { makeJob } from './make-target-spec.js';

function message(event: string, data: Record<string, unknown>, timestamp = '2026-11-22T10:00:00Z') {
  const built = defaultSlackMessage(makeJob({ event, timestamp, data }));
  return { built, json: JSON.stringify(built) };
}

describe('defaultSlackMessage', () => {
  it('shows the title with the severity emoji and colour, and the facts as fields', () => {
    const { built } = message('incident.created', {
      incident_id: 'inc_123',
      severity: 'critical',
      title: 'Ransomware on host-7',
      hostname: 'host-7',
      agent_id: 'agt_9',
    });
    expect(built.text).toBe(':rotating_light: Ransomware on host-7');
    expect(built.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: ':rotating_light: *Ransomware on host-7*' } },
    ]);
    const attachment = built.attachments?.[0];
    expect(attachment?.color).toBe('#B00020');
    const fields = (attachment?.blocks?.[0] as { fields: { text: string }[] }).fields.map((field) => field.text);
    expect(fields).toEqual([
      '*Severity*\ncritical',
      '*Event*\nincident.created',
      '*Incident*\ninc_123',
      '*Host*\nhost-7',
      '*Agent*\nagt_9',
      '*Time*\n<!date^1795341600^{date_short_pretty} {time_secs}|2026-11-22T10:00:00Z>',
    ]);
    expect(JSON.stringify(attachment?.blocks?.[1])).toContain('evt_01TEST');
  });

  it.each([
    ['agent.offline', { hostname: 'café-01' }, 'Agent offline: café-01'],
    ['agent.offline', { agent: { name: 'host-17', id: 'a1' } }, 'Agent offline: host-17'],
    ['agent.online', { host: 'web-1' }, 'Agent back online: web-1'],
    ['incident.created', { incident_id: 'inc_9' }, 'New incident inc_9'],
    ['incident.updated', {}, 'Incident updated'],
    ['incident.resolved', { incident_id: 'inc_9' }, 'Incident inc_9 resolved'],
    ['threat.detected', { host: 'db-2' }, 'Threat detected on db-2'],
    ['compliance.violation', {}, 'Compliance violation'],
    ['backup.failed', { hostname: 'nas' }, 'Event backup.failed on nas'],
  ])('without a title, %s %j reads "%s"', (event, data, title) => {
    expect(message(event, data).built.text).toMatch(new RegExp(`^:[a-z_]+: ${title}$`));
  });

  it.each([
    ['incident.created', 'high', ':red_circle:', '#E01E5A'],
    ['incident.created', 'MEDIUM', ':large_orange_circle:', '#F2994A'],
    ['incident.created', 'low', ':large_yellow_circle:', '#ECB22E'],
    ['incident.created', 'info', ':large_blue_circle:', '#1D9BD1'],
    ['incident.created', 'sev0', ':warning:', '#B00020'],
    ['incident.created', undefined, ':white_circle:', '#9E9E9E'],
    ['incident.resolved', 'critical', ':white_check_mark:', '#2EB67D'],
    ['agent.online', undefined, ':white_check_mark:', '#2EB67D'],
  ])('%s with severity %s looks %s %s', (event, severity, emoji, color) => {
    const { built } = message(event, severity === undefined ? {} : { severity });
    expect(built.text?.startsWith(`${emoji} `)).toBe(true);
    expect(built.attachments?.[0]?.color).toBe(color);
  });

  it('escapes every event-derived string, so <!channel> and links stay inert', () => {
    const { json } = message(
      'incident.created',
      {
        title: '<!channel> <https://evil.example|click> & more',
        severity: '<!here>',
        incident_id: '<@U123>',
        hostname: 'a>b',
        agent_id: '<#C1>',
      },
      '<!everyone>',
    );
    expect(json).not.toMatch(/<!channel>|<!here>|<!everyone>|<@U123>|<#C1>|<https:/);
    expect(json).toContain('&lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; more');
    expect(json).toContain('*Time*\\n&lt;!everyone&gt;');
  });

  it('clips very long strings to what Slack accepts', () => {
    const { built } = message('incident.created', { title: '😀'.repeat(100_000), hostname: 'h'.repeat(100_000) });
    expect(Array.from(built.text ?? '').length).toBe(':white_circle: '.length + 150);
    expect(built.text?.endsWith('😀…')).toBe(true);
    const fields = (built.attachments?.[0]?.blocks?.[0] as { fields: { text: string }[] }).fields;
    for (const field of fields) expect(field.text.length).toBeLessThan(2_000);
  });
});
