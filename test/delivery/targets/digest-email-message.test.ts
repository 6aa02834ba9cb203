import { describe, expect, it } from 'vitest';
import { defaultEmailMessage } from '../../../src/delivery/targets/default-email-message.js';
import { makeJob } from './make-target-spec.js';

const digest = (count: number, events: unknown[], key = 'brute-force') =>
  defaultEmailMessage(
    makeJob({
      event: 'switchyard.digest',
      timestamp: '2026-11-24T10:00:30Z',
      data: { title: `${count} events grouped by storm${key === '' ? '' : `: ${key}`}`, digest_id: 'dig_1' },
      group: { key, count, omitted: Math.max(0, count - events.length), events },
    }),
  );

describe('the default e-mail of a digest', () => {
  it('says how many events, lists the first 20 one per line and how many more, then the digest as received', () => {
    const events = Array.from({ length: 100 }, (_, n) => ({
      event: 'threat.detected',
      data: { title: `Login burst ${n}`, host: 'vpn-1' },
    }));
    const { subject, text } = digest(500, events);
    expect(subject).toBe('[DIGEST] 500 events grouped by storm: brute-force');
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      '500 events grouped by storm: brute-force',
      '',
      'Events:     500',
      'Group key:  brute-force',
      'Digest id:  dig_1 (its events: switchyard deliveries --held-by dig_1)',
      'Event id:   evt_01TEST',
      'Delivery:   dlv_1',
    ]);
    const listed = lines.filter((line) => line.startsWith('- '));
    expect(listed).toHaveLength(21);
    expect(listed[0]).toBe('- threat.detected: Login burst 0');
    expect(listed[20]).toBe('- and 480 more');
    const received = JSON.parse(text.slice(text.indexOf('Digest as received:\n') + 20)) as { group: { count: number } };
    expect(received.group.count).toBe(500);
  });

  it('keeps each listed event on one line, whatever its title holds', () => {
    const { subject, text } = digest(1, [{ event: 'threat.detected', data: { title: 'a\r\nBcc: x@evil\n- b' } }], '');
    expect(subject).toBe('[DIGEST] 1 events grouped by storm');
    expect(text).not.toContain('Group key:');
    expect(text.split('\n').filter((line) => line.startsWith('- '))).toEqual(['- threat.detected: a Bcc: x@evil - b']);
  });
});
