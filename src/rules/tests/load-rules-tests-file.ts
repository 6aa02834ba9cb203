import { readFileSync } from 'node:fs';
import type { Envelope } from '../../ingest/envelope.js';
import { validateEnvelope } from '../../ingest/parse-envelope.js';
import type { RulesProblem } from '../rules.js';
import { compileSchema } from '../schema/compile-schema.js';
import { reportSchemaErrors } from '../schema/report-schema-errors.js';
import { parseYamlSource } from '../source/parse-yaml-source.js';
import { createProblemSink, WHOLE_FILE } from '../source/problem-sink.js';
import { RULES_TESTS_SCHEMA } from './rules-tests-schema.js';
import type { Situation } from '../../lifecycle/choose-situation.js';
import { describeUnknownTarget } from '../check/check-target-references.js';

export interface RulesTestCase {
  readonly name: string;
  readonly line: number;
  readonly event: Envelope;
  readonly expect: readonly string[];
  /** When the event is routed (time intervals), ms; absent = now. */
  readonly at?: number;
  /** Targets expected to be recorded muted instead of sent; unchecked when absent. */
  readonly expectMuted?: readonly string[];
  /** Issue 14: the captured values assumed per target (`references:`); a target not named has no history. */
  readonly references?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Issue 14: the request (situation) expected per target; unchecked when absent. */
  readonly expectRequests?: Readonly<Record<string, Situation>>;
}

export type RulesTestsLoadResult =
  | { readonly ok: true; readonly cases: readonly RulesTestCase[] }
  | { readonly ok: false; readonly problems: readonly RulesProblem[] };

interface CaseShape {
  readonly name?: unknown;
  readonly event?: unknown;
  readonly expect?: unknown;
  readonly at?: unknown;
  readonly expect_muted?: unknown;
  readonly references?: unknown;
  readonly expect_requests?: unknown;
}

/**
 * Reads a tests file; every problem (YAML, schema, invalid event, duplicate case name, a target in `expect`
 * that the rules do not define) located at once. Parts the schema rejected are skipped, the rest checked.
 * `targetNames` is undefined when the rules file itself is invalid: `expect` is then not checked against it.
 */
export function loadRulesTestsFile(
  path: string,
  display: string = path,
  targetNames?: ReadonlySet<string>,
): RulesTestsLoadResult {
  const sink = createProblemSink(display);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    sink.error(
      'unreadable_file',
      `cannot read the tests file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      WHOLE_FILE,
    );
    return { ok: false, problems: sink.sorted() };
  }
  const { value, locate } = parseYamlSource(text, sink);
  if (value === undefined) return { ok: false, problems: sink.sorted() };
  const validate = compileSchema(RULES_TESTS_SCHEMA);
  const schemaErrors = validate(value) ? [] : (validate.errors ?? []);
  reportSchemaErrors(schemaErrors, locate, sink);
  const broken = (pointer: string) => schemaErrors.some((error) => error.instancePath === pointer);
  const list: unknown = (value as { cases?: unknown } | null)?.cases;
  const cases: RulesTestCase[] = [];
  const seen = new Set<string>();
  (Array.isArray(list) ? list : []).forEach((item: unknown, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
    const { name, event, expect, at, expect_muted: expectMuted, references, expect_requests } = item as CaseShape;
    if (typeof name === 'string' && seen.has(name)) {
      sink.error('duplicate_case_name', `duplicate case name "${name}"`, locate(['cases', index, 'name']));
    }
    if (typeof name === 'string') seen.add(name);
    // Only cases without any problem are run, so the unchecked cast is never used on a broken list.
    const expected = Array.isArray(expect) ? (expect as string[]) : undefined;
    expected?.forEach((target, position) => {
      if (targetNames === undefined || typeof target !== 'string' || targetNames.has(target)) return;
      sink.error(
        'unknown_target',
        describeUnknownTarget(target, [...targetNames]),
        locate(['cases', index, 'expect', position]),
      );
    });
    for (const [option, map] of [
      ['references', references],
      ['expect_requests', expect_requests],
    ] as const) {
      if (targetNames === undefined || typeof map !== 'object' || map === null) continue;
      for (const target of Object.keys(map)) {
        if (targetNames.has(target)) continue;
        sink.error(
          'unknown_target',
          describeUnknownTarget(target, [...targetNames]),
          locate(['cases', index, option, target]),
        );
      }
    }
    if (event === undefined || broken(`/cases/${index}/event`)) return;
    try {
      const envelope = validateEnvelope(event);
      if (typeof name === 'string' && expected !== undefined) {
        cases.push({
          name,
          line: locate(['cases', index]).line,
          event: envelope,
          expect: expected,
          ...(typeof at === 'string' && { at: Date.parse(at) }),
          ...(Array.isArray(expectMuted) && { expectMuted: expectMuted as string[] }),
          // Checked by the schema: a case with a malformed map is never run.
          ...(isMap(references) && { references: references as RulesTestCase['references'] }),
          ...(isMap(expect_requests) && { expectRequests: expect_requests as RulesTestCase['expectRequests'] }),
        });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      sink.error('invalid_event', `invalid event: ${message}`, locate(['cases', index, 'event']));
    }
  });
  return sink.hasErrors() ? { ok: false, problems: sink.sorted() } : { ok: true, cases };
}

function isMap(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
