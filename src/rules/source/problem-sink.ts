import type { RulesProblem } from '../rules.js';
import type { Location } from './locate-path.js';

/** Collects problems for one file; every check reports into it so that all problems come out at once. */
export interface ProblemSink {
  readonly file: string;
  error(code: string, message: string, at: Location): void;
  warning(code: string, message: string, at: Location): void;
  hasErrors(): boolean;
  /** All problems so far, in file order (line, then column). */
  sorted(): RulesProblem[];
}

export function createProblemSink(file: string): ProblemSink {
  const problems: RulesProblem[] = [];
  const add = (severity: RulesProblem['severity'], code: string, message: string, at: Location): void => {
    problems.push({ severity, code, message, file, line: at.line, column: at.column });
  };
  return {
    file,
    error: (code, message, at) => add('error', code, message, at),
    warning: (code, message, at) => add('warning', code, message, at),
    hasErrors: () => problems.some((problem) => problem.severity === 'error'),
    sorted: () => [...problems].sort((a, b) => a.line - b.line || a.column - b.column),
  };
}

/** Where a problem about the whole file (unreadable, empty) is reported. */
export const WHOLE_FILE: Location = { line: 0, column: 0 };
