import { describe, expect, it } from 'vitest';
import { defaultEmailMessage } from '../../../src/delivery/targets/default-email-message.js';
import { defaultSlackMessage } from '../../../src/delivery/targets/default-slack-message.js';
import { flattenHeaderText } from '../../../src/delivery/targets/flatten-header-text.js';
import { makeEmailJob } from './make-email-job.js';

describe('defaultEmailMessage', () => {
  it.each([
    [
      'incident.created',
      { severity: 'critical', title: 'Suspicious login' },
      '[CRITICAL] Incident created: Suspicious login',
    ],
    ['incident.resolved', { incident_id: 'inc_1' }, 'Incident resolved: inc_1'],
    ['agent.offline', { agent: { name: 'host-17' } }, 'Agent offline: host-17'],
    ['threat.detected', { verdict: 'confirmed', severity: 'High' }, '[HIGH] Threat detected'],
    [
      'compliance.violation',
      { policy: 'disk-encryption', severity: 'medium' },
      '[MEDIUM] Compliance violation: disk-encryption',
    ],
    ['vulnerability.found', { cve: 'CVE-2026-0001' }, 'Vulnerability found'],
  ])('titles %s events', (kind, data, subject) => {
    expect(defaultEmailMessage(makeEmailJob({ kind, data })).subject).toBe(subject);
  });

  it('lists the key fields, then the event as received, pretty-printed', () => {
    const job = makeEmailJob({
      deliveryId: 'dlv_5',
      data: { incident_id: 'inc_1', severity: 'critical', title: 'Suspicious login', host: 'web-1' },
    });

    const { text } = defaultEmailMessage(job);

    expect(text.split('\n').slice(0, 12)).toEqual([
      'Incident created: Suspicious login',
      '',
      'Severity:    critical',
      'Event:       incident.created',
      'Incident:    inc_1',
      'Host:        web-1',
      'Occurred at: 2026-11-22T10:00:00Z',
      'Received at: 2026-11-22T10:00:01.000Z',
      'Source:      monitor',
      `Event id:    ${job.event.id}`,
      'Delivery id: dlv_5',
      '',
    ]);
    expect(text).toContain(`Event as received:\n${JSON.stringify(job.envelope, null, 2)}\n`);
  });

  it.each([
    [{ hostname: 'db-1' }, 'db-1'],
    [{ host: 'web-1' }, 'web-1'],
    [{ agent: { hostname: 'fs-02', id: 'agt_3' } }, 'fs-02'],
    [{ agent: { name: 'host-17' } }, 'host-17'],
  ])('shows a Host row for %j, as the Slack card does', (data, host) => {
    const job = makeEmailJob({ kind: 'agent.offline', data });
    expect(defaultEmailMessage(job).text).toContain(`\nHost:        ${host}\n`);
    const card = JSON.stringify(defaultSlackMessage(job).attachments);
    expect(card).toContain(JSON.stringify(`*Host*\n${host}`));
  });

  it('keeps event data with line breaks from forging rows or header lines', () => {
    const job = makeEmailJob({
      data: { severity: 'low\r\nBcc: x@evil.example', title: 'a\nb', incident_id: 'inc_1\nDelivery id: fake' },
    });

    const { subject, text } = defaultEmailMessage(job);

    expect(subject).toBe('[LOW BCC: X@EVIL.EXAMPLE] Incident created: a b');
    expect(text).toContain('Incident:    inc_1 Delivery id: fake\n');
    expect(text.match(/^Delivery id:/gm)).toHaveLength(1);
  });

  it('ignores titles that are not text and bounds a very long one', () => {
    expect(defaultEmailMessage(makeEmailJob({ data: { title: { nested: true } } })).subject).toBe('Incident created');
    const long = defaultEmailMessage(makeEmailJob({ data: { title: 'x'.repeat(10_000) } })).subject;
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('...')).toBe(true);
  });
});

describe('flattenHeaderText', () => {
  it('turns every run of control characters and white space into one space', () => {
    expect(flattenHeaderText(' a\r\n\tb\u0000c\u2028d  e \n')).toBe('a b c d e');
  });
});
