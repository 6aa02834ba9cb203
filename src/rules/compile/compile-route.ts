import type { Locator, PathSegment } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';
import { compileGroup } from '../../noise/compile-group.js';
import { compileThrottle } from '../../noise/compile-throttle.js';
import type { TimeRange } from '../../noise/time-interval.js';
import type { CompiledRoute, NamedTimeInterval, RouteCondition } from '../rules.js';
import type { TemplateCompiler } from './create-template-compiler.js';
import { didYouMean } from '../check/closest-name.js';
import type { CompiledRegex } from './compile-regex.js';
import { compileEventCondition } from './compile-event-condition.js';
import { compileSeverityCondition, type SeverityConditionSpec } from './compile-severity-condition.js';
import { compileWhereCondition } from './compile-where-condition.js';

export interface RouteSpec {
  readonly name: string;
  readonly match?: {
    readonly event?: string | readonly string[];
    readonly severity?: SeverityConditionSpec;
    readonly where?: readonly Readonly<Record<string, unknown>>[];
  };
  /** One name alone is the same as a list of that name. */
  readonly to: string | readonly string[];
  readonly stop?: boolean;
  readonly throttle?: unknown;
  readonly group?: unknown;
  readonly active_during?: readonly string[];
  readonly muted_during?: readonly string[];
}

export interface RouteCompileContext {
  readonly locate: Locator;
  readonly sink: ProblemSink;
  /** Undefined when `severities` itself is invalid: severity conditions are then not checked further. */
  readonly severities: { readonly levels: readonly string[]; readonly ranks: ReadonlyMap<string, number> } | undefined;
  readonly regex: (pattern: string) => CompiledRegex;
  /** True when the schema rejected the value at this path (relative to the route); such parts are skipped. */
  readonly isBroken: (position: number, ...path: PathSegment[]) => boolean;
  /** Compiles `throttle.key` (absolute path), reporting its syntax errors. */
  readonly templates?: TemplateCompiler;
  /** The rules file's `time_intervals`, by name. */
  readonly timeIntervals?: ReadonlyMap<string, readonly TimeRange[]>;
}

/**
 * Compiles one route, reporting its problems; returns undefined when it has errors. Parts the schema
 * rejected are skipped, but the rest is still checked, so one `check` run shows every problem.
 */
export function compileRoute(
  spec: RouteSpec,
  position: number,
  context: RouteCompileContext,
): CompiledRoute | undefined {
  const { locate, sink } = context;
  const at = (...path: PathSegment[]) => locate(['routes', position, 'match', ...path]);
  const broken = (...path: PathSegment[]) => context.isBroken(position, 'match', ...path);
  let failed = context.isBroken(position);
  const fail = (code: string, message: string, path: PathSegment[]) => {
    sink.error(code, message, at(...path));
    failed = true;
  };

  const raw = broken('event') ? undefined : spec.match?.event;
  const events = raw === undefined ? null : typeof raw === 'string' ? [raw] : raw;
  const event = compileEventCondition(events);
  if (!event.ok) {
    for (const bad of event.bad) {
      fail(
        'bad_glob',
        `invalid event pattern: ${bad.reason}`,
        typeof raw === 'string' ? ['event'] : ['event', bad.index],
      );
    }
  }

  const conditions: RouteCondition[] = [];
  const severity = spec.match?.severity;
  if (severity !== undefined && context.severities !== undefined && !broken('severity')) {
    const { levels, ranks } = context.severities;
    const compiled = compileSeverityCondition(severity, levels, ranks);
    if (!compiled.ok) {
      for (const { path, level } of compiled.unknownLevels) {
        fail(
          'unknown_severity_level',
          `"${level}" is not one of the severities${didYouMean(level, levels)} (${levels.join(', ')})`,
          ['severity', ...path],
        );
      }
    } else {
      conditions.push(compiled.condition);
      if (compiled.emptyRange) {
        sink.warning(
          'empty_severity_range',
          'no severity satisfies this condition: the route never matches',
          at('severity'),
        );
      }
    }
  }

  const where = broken('where') && !Array.isArray(spec.match?.where) ? [] : (spec.match?.where ?? []);
  where.forEach((condition, index) => {
    if (broken('where', index)) return;
    const compiled = compileWhereCondition(condition, context.regex);
    if (compiled.ok) conditions.push(compiled.condition);
    else fail('bad_regex', compiled.reason, ['where', index, ...compiled.key.split('.')]);
  });

  const throttlePath = ['routes', position, 'throttle'];
  const throttle =
    spec.throttle === undefined || context.isBroken(position, 'throttle')
      ? undefined
      : compileThrottle(
          spec.throttle,
          `route:${spec.name}`,
          (text) =>
            typeof text === 'string' ? context.templates?.template(text, 'none', [...throttlePath, 'key']) : null,
          (message) => {
            sink.error('zero_throttle_window', `throttle.window: ${message}`, locate([...throttlePath, 'window']));
            failed = true;
          },
        );
  const intervals = (key: 'active_during' | 'muted_during'): NamedTimeInterval[] | undefined => {
    const names = spec[key];
    if (names === undefined || context.isBroken(position, key)) return undefined;
    const known = context.timeIntervals ?? new Map<string, readonly TimeRange[]>();
    return names.flatMap((name, index) => {
      const ranges = known.get(name);
      if (ranges !== undefined) return [{ name, ranges }];
      sink.error(
        'unknown_time_interval',
        `${key}: "${name}" is not one of the time_intervals${didYouMean(name, [...known.keys()])}`,
        locate(['routes', position, key, index]),
      );
      failed = true;
      return [];
    });
  };
  const groupPath = ['routes', position, 'group'];
  const group =
    spec.group === undefined || context.isBroken(position, 'group')
      ? undefined
      : compileGroup(
          spec.group,
          (text, index) => context.templates?.template(text, 'none', [...groupPath, 'by', index]),
          (index, message) => {
            sink.error('group_key_not_template', `group.by[${index}]: ${message}`, locate([...groupPath, 'by', index]));
            failed = true;
          },
        );
  const activeDuring = intervals('active_during');
  const mutedDuring = intervals('muted_during');
  if (failed || !event.ok) return undefined;
  return {
    name: spec.name,
    position,
    line: locate(['routes', position]).line,
    events: event.matchesAll ? null : events,
    kind: event.kind,
    conditions,
    to: typeof spec.to === 'string' ? [spec.to] : spec.to,
    stop: spec.stop === true,
    ...(throttle !== undefined && { throttle }),
    ...(group !== undefined && { group }),
    ...(activeDuring !== undefined && { activeDuring }),
    ...(mutedDuring !== undefined && { mutedDuring }),
  };
}
