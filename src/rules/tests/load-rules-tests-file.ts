import { readFileSync } from 'node:fs';
import type { Envelope } from '../../ingest/envelope.js';
import { validateEnvelope } from '../../ingest/parse-envelope.js';
import type { RulesProblem } from '../rules.js';
import { compileSchema } from '../schema/compile-schema.js';
import { reportSchemaErrors } from '../schema/report-schema-errors.js';
import { parseYamlSource } from '../source/parse-yaml-source.js';
import { createProblemSink, WHOLE_FILE } from '../source/problem-sink.js';
import { RULES_TESTS_SCHEMA } from './rules-tests-schema.js';

export interface RulesTestCase {
  readonly name: string;
  readonly line: number;
  readonly event: Envelope;
  readonly expect: readonly string[];
}

export type RulesTestsLoadResult =
  | { readonly ok: true; readonly cases: readonly RulesTestCase[] }
  | { readonly ok: false; readonly problems: readonly RulesProblem[] };

interface CaseShape {
  readonly name: string;
  readonly event: unknown;
  readonly expect: readonly string[];
}

/** Reads a tests file; every problem (YAML, schema, invalid event, duplicate case name) located at once. */
export function loadRulesTestsFile(path: string, display: string = path): RulesTestsLoadResult {
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
  if (!validate(value)) {
    reportSchemaErrors(validate.errors ?? [], locate, sink);
    return { ok: false, problems: sink.sorted() };
  }
  const cases: RulesTestCase[] = [];
  const seen = new Set<string>();
  (value as { cases: CaseShape[] }).cases.forEach((testCase, index) => {
    if (seen.has(testCase.name)) {
      sink.error('duplicate_case_name', `duplicate case name "${testCase.name}"`, locate(['cases', index, 'name']));
    }
    seen.add(testCase.name);
    try {
      const event = validateEnvelope(testCase.event);
      cases.push({ name: testCase.name, line: locate(['cases', index]).line, event, expect: testCase.expect });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      sink.error('invalid_event', `invalid event: ${message}`, locate(['cases', index, 'event']));
    }
  });
  return sink.hasErrors() ? { ok: false, problems: sink.sorted() } : { ok: true, cases };
}
