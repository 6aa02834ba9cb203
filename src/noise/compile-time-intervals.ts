import type { TimeRange } from './time-interval.js';

export interface TimeIntervalProblem {
  /** Relative to `time_intervals`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;

type Range = readonly [number, number];

/**
 * Compiles the rules file's `time_intervals:` (Alertmanager's shape: a list of `{ name, time_intervals: [...] }`,
 * already checked by the schema) into named lists of ranges, reporting every bad value where it is written.
 */
export function compileTimeIntervals(raw: unknown): {
  readonly intervals: ReadonlyMap<string, readonly TimeRange[]>;
  readonly problems: readonly TimeIntervalProblem[];
} {
  const intervals = new Map<string, TimeRange[]>();
  const problems: TimeIntervalProblem[] = [];
  if (!Array.isArray(raw)) return { intervals, problems };
  raw.forEach((entry: { name?: unknown; time_intervals?: unknown }, index) => {
    if (typeof entry?.name !== 'string' || !Array.isArray(entry.time_intervals)) return;
    if (intervals.has(entry.name))
      problems.push({ path: [index, 'name'], message: `duplicate time interval name "${entry.name}"` });
    const ranges = entry.time_intervals.map((spec: Record<string, unknown>, position: number) =>
      compileRange(spec, (path, message) =>
        problems.push({ path: [index, 'time_intervals', position, ...path], message }),
      ),
    );
    intervals.set(entry.name, ranges);
  });
  return { intervals, problems };
}

type Report = (path: readonly (string | number)[], message: string) => void;

function compileRange(spec: Record<string, unknown>, report: Report): TimeRange {
  const list = <T>(
    name: string,
    parse: (value: unknown, at: (string | number)[]) => T | undefined,
  ): T[] | undefined => {
    const values = spec[name];
    if (!Array.isArray(values)) return undefined;
    return values.flatMap((value, i) => {
      const parsed = parse(value, [name, i]);
      return parsed === undefined ? [] : [parsed];
    });
  };
  const location = typeof spec.location === 'string' ? zone(spec.location, report) : 'UTC';
  const range: Record<string, unknown> = { location };
  const times = list('times', (value, at) => time(value, at, report));
  const weekdays = list('weekdays', (value, at) => named(value, at, WEEKDAYS, 0, 'weekday', report));
  const days = list('days_of_month', (value, at) => dayRange(value, at, report));
  const months = list('months', (value, at) => named(value, at, MONTHS, 1, 'month', report));
  const years = list('years', (value, at) => numeric(value, at, 1, 9999, 'year', report));
  if (times) range.times = times;
  if (weekdays) range.weekdays = weekdays;
  if (days) range.daysOfMonth = days;
  if (months) range.months = months;
  if (years) range.years = years;
  return range as unknown as TimeRange;
}

function zone(name: string, report: Report): string {
  const resolved = name === 'Local' ? Intl.DateTimeFormat().resolvedOptions().timeZone : name;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: resolved });
    return resolved;
  } catch {
    report(['location'], `unknown time zone "${name}" (an IANA name such as Europe/Berlin, or UTC)`);
    return 'UTC';
  }
}

function time(value: unknown, at: (string | number)[], report: Report): Range | undefined {
  const { start_time: start, end_time: end } = (value ?? {}) as { start_time?: unknown; end_time?: unknown };
  const minutes = (text: unknown, key: string): number | undefined => {
    const match = typeof text === 'string' ? TIME.exec(text) : null;
    if (match === null) {
      report([...at, key], 'must be HH:MM (00:00 to 24:00)');
      return undefined;
    }
    return Number(match[1] ?? match[3]) * 60 + Number(match[2] ?? match[4]);
  };
  const from = minutes(start, 'start_time');
  const to = minutes(end, 'end_time');
  if (from === undefined || to === undefined) return undefined;
  if (from >= to) {
    report(at, 'start_time must be before end_time (a range across midnight is two ranges)');
    return undefined;
  }
  return [from, to];
}

function split(value: unknown): [string, string] | undefined {
  if (typeof value === 'number') return [String(value), String(value)];
  if (typeof value !== 'string') return undefined;
  const parts = value.split(':');
  if (parts.length > 2) return undefined;
  return [parts[0] ?? '', parts[1] ?? parts[0] ?? ''];
}

function named(
  value: unknown,
  at: (string | number)[],
  names: readonly string[],
  first: number,
  what: string,
  report: Report,
): Range | undefined {
  const bounds = split(value);
  const index = (text: string): number | undefined => {
    const byName = names.indexOf(text.trim().toLowerCase());
    if (byName >= 0) return byName + first;
    const number = Number(text);
    return what === 'month' && Number.isInteger(number) && number >= 1 && number <= 12 ? number : undefined;
  };
  const [start, end] = bounds === undefined ? [undefined, undefined] : [index(bounds[0]), index(bounds[1])];
  if (start === undefined || end === undefined) {
    report(at, `"${String(value)}" is not a ${what} or a range of them (${names[0]}:${names[names.length - 1]})`);
    return undefined;
  }
  if (start > end) {
    report(at, `the ${what} range "${String(value)}" ends before it starts`);
    return undefined;
  }
  return [start, end];
}

function numeric(
  value: unknown,
  at: (string | number)[],
  min: number,
  max: number,
  what: string,
  report: Report,
): Range | undefined {
  const bounds = split(value);
  const [start, end] = (bounds ?? ['', '']).map(Number) as [number, number];
  if (bounds === undefined || ![start, end].every((n) => Number.isInteger(n) && n >= min && n <= max) || start > end) {
    report(at, `"${String(value)}" is not a ${what} or an increasing range of them (${min} to ${max})`);
    return undefined;
  }
  return [start, end];
}

function dayRange(value: unknown, at: (string | number)[], report: Report): Range | undefined {
  const bounds = split(value);
  const [start, end] = (bounds ?? ['', '']).map(Number) as [number, number];
  const valid = (n: number) => Number.isInteger(n) && n !== 0 && n >= -31 && n <= 31;
  // Alertmanager: both ends the same sign must increase; -1 is the last day of the month.
  if (bounds === undefined || !valid(start) || !valid(end) || (Math.sign(start) === Math.sign(end) && start > end)) {
    report(at, `"${String(value)}" is not a day of the month (1 to 31, or -31 to -1 from the end) or a range of them`);
    return undefined;
  }
  return [start, end];
}
