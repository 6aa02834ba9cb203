import type { DoctorCheck } from './doctor-check.js';

/** One line per check (`VERDICT  item  detail`, further lines of a detail indented below it) and a count. */
export function formatDoctorReport(checks: readonly DoctorCheck[]): string {
  const width = Math.max(0, ...checks.map((check) => check.item.length));
  const lines = checks.map((check) => {
    const [first = '', ...rest] = check.detail.split('\n');
    const head = `${check.verdict.padEnd(4)}  ${check.item.padEnd(width)}  ${first}`.trimEnd();
    const indent = ' '.repeat(4 + 2 + width + 2);
    return [head, ...rest.map((line) => `${indent}${line.trim()}`)].join('\n');
  });
  const count = (verdict: DoctorCheck['verdict']) => checks.filter((check) => check.verdict === verdict).length;
  lines.push(`doctor: ${count('OK')} OK, ${count('WARN')} WARN, ${count('FAIL')} FAIL`);
  return `${lines.join('\n')}\n`;
}
