import type { Problem } from '../api/api-types.js';

/** Problems of a rules file as `line:column severity: message (code)`; `onPick` lets the reader jump to one. */
export function ProblemList(props: {
  readonly problems: readonly Problem[];
  readonly onPick?: (problem: Problem) => void;
}) {
  if (props.problems.length === 0) return <p>No problems.</p>;
  return (
    <ul class="problems">
      {props.problems.map((problem, index) => {
        const where = problem.line > 0 ? `${problem.line}:${problem.column}` : 'file';
        const text = `${problem.severity}: ${problem.message} (${problem.code})`;
        const pick = props.onPick;
        return (
          <li key={index} class={`problem problem-${problem.severity === 'error' ? 'error' : 'warning'}`}>
            {pick === undefined || problem.line <= 0 ? (
              <span class="problem-where">{where}</span>
            ) : (
              <button
                type="button"
                class="link problem-where"
                aria-label={`${where}: go to line ${problem.line}, column ${problem.column}`}
                onClick={() => pick(problem)}
              >
                {where}
              </button>
            )}{' '}
            {text}
          </li>
        );
      })}
    </ul>
  );
}
