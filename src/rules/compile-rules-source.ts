import type { ErrorObject } from 'ajv';
import { buildRouteIndex } from './build-route-index.js';
import { checkEventKinds } from './check/check-event-kinds.js';
import { checkLifecycleRefs } from './check/check-lifecycle-refs.js';
import { checkTargetReferences } from './check/check-target-references.js';
import { findUnreachableRoutes } from './check/find-unreachable-routes.js';
import { compileRegex, type CompiledRegex } from './compile/compile-regex.js';
import { compileRoutes } from './compile/compile-routes.js';
import { compileSeverities } from './compile/compile-severities.js';
import { compileTargets } from './compile/compile-targets.js';
import { createTemplateCompiler } from './compile/create-template-compiler.js';
import { compileTimeIntervals } from '../noise/compile-time-intervals.js';
import { displayPath } from './schema/display-path.js';
import { valueAtPath } from './compile/value-at-path.js';
import { deepFreeze } from './deep-freeze.js';
import { expandTargetEnv } from './env/expand-target-env.js';
import type { CompiledRules, RulesLoadResult } from './rules.js';
import { reportSchemaErrors } from './schema/report-schema-errors.js';
import { rulesSchemaValidator } from './schema/rules-schema-validator.js';
import { parseYamlSource } from './source/parse-yaml-source.js';
import { createProblemSink } from './source/problem-sink.js';

export interface RulesSource {
  readonly text: string;
  /** The file as it should appear in problems (as given by the user). */
  readonly file: string;
  readonly absoluteFile: string;
  readonly version: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly requireEnv: boolean;
  /** `${VAR}`s are checked but never replaced by their values (see expandTargetEnv). */
  readonly withholdEnv?: boolean;
}

interface RulesDocument {
  readonly severities?: readonly string[];
  readonly targets?: Readonly<Record<string, unknown>>;
  readonly routes?: readonly unknown[];
  readonly fallback?: string | readonly string[];
  readonly time_intervals?: unknown;
}

/**
 * YAML text → every problem at once, or compiled, deeply frozen rules. Checks that need valid data run on
 * the parts the schema accepted, so one mistake does not hide the others.
 */
export function compileRulesSource(source: RulesSource): RulesLoadResult {
  const sink = createProblemSink(source.file);
  const failed = (): RulesLoadResult => ({ ok: false, problems: sink.sorted() });
  const { value, locate } = parseYamlSource(source.text, sink);
  if (value === undefined) return failed();
  if (value === null) {
    sink.error('empty_file', 'the rules file is empty: it needs targets and routes', { line: 1, column: 1 });
    return failed();
  }

  const expanded = expandTargetEnv(value, source.env, source.requireEnv, locate, sink, source.withholdEnv);
  const validate = rulesSchemaValidator();
  const schemaOk = validate(expanded.value);
  const schemaErrors: readonly ErrorObject[] = schemaOk ? [] : [...(validate.errors ?? [])];
  reportSchemaErrors(schemaErrors, locate, sink, { skip: expanded.isUnresolved, origin: expanded.originOf });
  if (typeof expanded.value !== 'object' || Array.isArray(expanded.value)) return failed();
  const broken = (pointer: string) =>
    schemaErrors.some((error) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`));

  const document = expanded.value as RulesDocument;
  const scale = compileSeverities(document.severities, broken('/severities'), locate, sink);
  const targetsOk =
    typeof document.targets === 'object' && document.targets !== null && !Array.isArray(document.targets);
  const targetNames = new Set(targetsOk ? Object.keys(document.targets ?? {}) : []);
  if (targetsOk) checkTargetReferences(document, targetNames, locate, sink);
  if (targetsOk) checkLifecycleRefs(document.targets ?? {}, locate, sink);
  const templates = createTemplateCompiler({
    locate,
    sink,
    originOf: expanded.originOf,
    rawValue: (path) => valueAtPath(value, path),
  });
  const targets = compileTargets(targetsOk ? (document.targets ?? {}) : {}, {
    locate,
    sink,
    templates,
    isBroken: (path) => broken(path.map((segment) => `/${escapePointer(String(segment))}`).join('')),
  });

  const regexes = new Map<string, CompiledRegex>();
  const regex = (pattern: string): CompiledRegex => {
    let compiled = regexes.get(pattern);
    if (compiled === undefined) regexes.set(pattern, (compiled = compileRegex(pattern)));
    return compiled;
  };
  const timeIntervals = compileTimeIntervals(document.time_intervals);
  for (const problem of timeIntervals.problems) {
    const path = ['time_intervals', ...problem.path];
    sink.error('bad_time_interval', `${displayPath(path)}: ${problem.message}`, locate(path));
  }
  const routeList = Array.isArray(document.routes) ? document.routes : [];
  const routes = compileRoutes(routeList, {
    locate,
    sink,
    severities: scale,
    regex,
    isBroken: (position, ...path) => broken(['', 'routes', position, ...path].join('/')),
    templates,
    timeIntervals: timeIntervals.intervals,
  });
  findUnreachableRoutes(routes, locate, sink);
  checkEventKinds(routes, locate, sink);

  if (sink.hasErrors() || scale === undefined || !schemaOk) return failed();
  const rules: CompiledRules = {
    file: source.absoluteFile,
    version: source.version,
    severities: scale.levels,
    severityRanks: scale.ranks,
    targets,
    secrets: expanded.secrets,
    routes,
    fallback: typeof document.fallback === 'string' ? [document.fallback] : (document.fallback ?? []),
    index: buildRouteIndex(routes),
  };
  return { ok: true, rules: deepFreeze(rules), warnings: sink.sorted() };
}

/** RFC 6901: `~` and `/` inside a segment are written `~0` and `~1`. */
function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
