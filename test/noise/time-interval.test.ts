import { describe, expect, it } from 'vitest';
import { compileTimeIntervals } from '../../src/noise/compile-time-intervals.js';
import { inTimeInterval } from '../../src/noise/time-interval.js';

function interval(ranges: unknown[]) {
  const { intervals, problems } = compileTimeIntervals([{ name: 'i', time_intervals: ranges }]);
  expect(problems).toEqual([]);
  return intervals.get('i') ?? [];
}
const at = (iso: string) => Date.parse(iso);

describe('time intervals (Alertmanager semantics)', () => {
  it('business hours in Berlin: weekdays, times with the end exclusive', () => {
    const business = interval([
      { weekdays: ['monday:friday'], times: [{ start_time: '09:00', end_time: '17:00' }], location: 'Europe/Berlin' },
    ]);
    expect(inTimeInterval(business, at('2026-11-24T08:00:00Z'))).toBe(true); // Tue 09:00 CET
    expect(inTimeInterval(business, at('2026-11-24T07:59:00Z'))).toBe(false); // 08:59
    expect(inTimeInterval(business, at('2026-11-24T16:00:00Z'))).toBe(false); // 17:00, exclusive
    expect(inTimeInterval(business, at('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
  });

  it('follows daylight saving: a window opens and closes at the right instants across the change', () => {
    // Europe/Berlin springs forward on 2026-03-29 at 02:00 (to 03:00) and falls back on 2026-10-25 at 03:00.
    const night = interval([{ times: [{ start_time: '01:00', end_time: '04:00' }], location: 'Europe/Berlin' }]);
    expect(inTimeInterval(night, at('2026-03-28T23:59:00Z'))).toBe(false); // 00:59 CET
    expect(inTimeInterval(night, at('2026-03-29T00:00:00Z'))).toBe(true); // 01:00 CET: opens
    expect(inTimeInterval(night, at('2026-03-29T01:00:00Z'))).toBe(true); // 03:00 CEST (02:00 skipped)
    expect(inTimeInterval(night, at('2026-03-29T01:59:00Z'))).toBe(true); // 03:59 CEST
    expect(inTimeInterval(night, at('2026-03-29T02:00:00Z'))).toBe(false); // 04:00 CEST: closed after 2 hours
    expect(inTimeInterval(night, at('2026-10-24T22:59:00Z'))).toBe(false); // 00:59 CEST
    expect(inTimeInterval(night, at('2026-10-24T23:00:00Z'))).toBe(true); // 01:00 CEST: opens
    expect(inTimeInterval(night, at('2026-10-25T02:59:00Z'))).toBe(true); // 03:59 CET, after 02:00-03:00 twice
    expect(inTimeInterval(night, at('2026-10-25T03:00:00Z'))).toBe(false); // 04:00 CET: closed after 4 hours
    const newYork = interval([{ times: [{ start_time: '02:00', end_time: '03:00' }], location: 'America/New_York' }]);
    // 2026-03-08 02:00 does not exist in New York: the range never holds that night.
    expect(inTimeInterval(newYork, at('2026-03-08T06:59:00Z'))).toBe(false); // 01:59 EST
    expect(inTimeInterval(newYork, at('2026-03-08T07:00:00Z'))).toBe(false); // 03:00 EDT
  });

  it('days of the month count from the end when negative; months, years, and names or numbers', () => {
    const lastDays = interval([{ days_of_month: ['-3:-1'], months: ['february', '12'], years: ['2026:2027'] }]);
    expect(inTimeInterval(lastDays, at('2026-02-26T12:00:00Z'))).toBe(true); // Feb 2026 has 28 days
    expect(inTimeInterval(lastDays, at('2026-02-25T12:00:00Z'))).toBe(false);
    expect(inTimeInterval(lastDays, at('2026-12-29T12:00:00Z'))).toBe(true);
    expect(inTimeInterval(lastDays, at('2026-12-28T12:00:00Z'))).toBe(false);
    expect(inTimeInterval(lastDays, at('2028-02-28T12:00:00Z'))).toBe(false); // year outside
    expect(inTimeInterval(lastDays, at('2026-01-30T12:00:00Z'))).toBe(false); // month outside
  });

  it('holds when any range does; an empty range always holds; UTC by default', () => {
    const either = interval([
      { weekdays: ['saturday', 'sunday'] },
      { times: [{ start_time: '00:00', end_time: '06:00' }] },
    ]);
    expect(inTimeInterval(either, at('2026-11-28T12:00:00Z'))).toBe(true);
    expect(inTimeInterval(either, at('2026-11-24T05:59:00Z'))).toBe(true);
    expect(inTimeInterval(either, at('2026-11-24T06:00:00Z'))).toBe(false);
    expect(inTimeInterval(interval([{}]), at('2026-11-24T06:00:00Z'))).toBe(true);
    expect(
      inTimeInterval(interval([{ times: [{ start_time: '23:00', end_time: '24:00' }] }]), at('2026-11-24T23:59:00Z')),
    ).toBe(true);
  });

  it('reports every bad value where it is written', () => {
    const { problems } = compileTimeIntervals([
      {
        name: 'bad',
        time_intervals: [
          {
            weekdays: ['friday:monday', 'funday'],
            times: [
              { start_time: '18:00', end_time: '09:00' },
              { start_time: '9:00', end_time: '25:00' },
            ],
            days_of_month: ['0', '5:1'],
            months: ['smarch'],
            years: ['2027:2026'],
            location: 'Mars/Olympus_Mons',
          },
        ],
      },
      { name: 'bad', time_intervals: [] },
    ]);
    expect(problems.map((p) => p.path.join('.'))).toEqual([
      '0.time_intervals.0.location',
      '0.time_intervals.0.times.0',
      '0.time_intervals.0.times.1.start_time',
      '0.time_intervals.0.times.1.end_time',
      '0.time_intervals.0.weekdays.0',
      '0.time_intervals.0.weekdays.1',
      '0.time_intervals.0.days_of_month.0',
      '0.time_intervals.0.days_of_month.1',
      '0.time_intervals.0.months.0',
      '0.time_intervals.0.years.0',
      '1.name',
    ]);
  });
});
