/**
 * Named time intervals with Alertmanager's semantics (its `time_intervals`: weekdays, times of day, days of
 * the month, months, years, a location), so a team can carry its intervals over. An interval is a list of
 * ranges and holds when any range does; a range holds when every field it gives holds; a field holds when any
 * of its entries does. Times are `HH:MM`, the end exclusive (24:00 allowed); the other ranges are inclusive;
 * negative days of the month count from its end (-1 = the last day). Wall-clock fields come from the IANA
 * database through Intl, so daylight-saving changes follow the zone's rules.
 * https://prometheus.io/docs/alerting/latest/configuration/#time_interval
 */
export interface TimeRange {
  /** Minutes of the day, [start, end). */
  readonly times?: readonly (readonly [number, number])[];
  /** 0 = Sunday ... 6 = Saturday, inclusive ranges. */
  readonly weekdays?: readonly (readonly [number, number])[];
  /** Inclusive ranges; negative = from the end of the month. */
  readonly daysOfMonth?: readonly (readonly [number, number])[];
  /** 1 = January ... 12. */
  readonly months?: readonly (readonly [number, number])[];
  readonly years?: readonly (readonly [number, number])[];
  /** An IANA zone; UTC when absent. */
  readonly location: string;
}

export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
  readonly minuteOfDay: number;
  readonly daysInMonth: number;
}

const WEEKDAY: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();
const cache = new Map<string, WallClock>();

/** The wall clock in `location` at `instant`, cached per zone and minute (routing runs on the ingest path). */
export function wallClock(instant: number, location: string): WallClock {
  const minute = Math.floor(instant / 60_000);
  const key = `${location}|${minute}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let format = formatters.get(location);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: location,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(location, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(minute * 60_000))) parts[part.type] = part.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const clock: WallClock = {
    year,
    month,
    day: Number(parts.day),
    weekday: WEEKDAY[parts.weekday ?? ''] ?? 0,
    minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute),
    daysInMonth: new Date(Date.UTC(year, month, 0)).getUTCDate(),
  };
  if (cache.size >= 10_000) cache.clear();
  cache.set(key, clock);
  return clock;
}

/** Whether `instant` falls in any of the ranges. */
export function inTimeInterval(ranges: readonly TimeRange[], instant: number): boolean {
  return ranges.some((range) => inRange(range, wallClock(instant, range.location)));
}

function inRange(range: TimeRange, at: WallClock): boolean {
  const within = (list: readonly (readonly [number, number])[] | undefined, value: number) =>
    list === undefined || list.some(([start, end]) => value >= start && value <= end);
  if (
    range.times !== undefined &&
    !range.times.some(([start, end]) => at.minuteOfDay >= start && at.minuteOfDay < end)
  ) {
    return false;
  }
  const day = (d: number) => (d < 0 ? at.daysInMonth + 1 + d : d);
  const days = range.daysOfMonth?.map(([start, end]) => [day(start), day(end)] as const);
  return (
    within(range.weekdays, at.weekday) &&
    within(days, at.day) &&
    within(range.months, at.month) &&
    within(range.years, at.year)
  );
}
