import type { RepairAudit } from './repair-journal.js';

const MAX_TEXT = 500;

/**
 * Who and why for a repair, checked once at the edge (CLI and admin API): both required, one line each, at
 * most 500 characters, so the audit trail always says something. A string is the problem, for the caller.
 */
export function parseRepairAudit(actor: unknown, reason: unknown, at: number): RepairAudit | string {
  const problem = textProblem('the reason', reason) ?? textProblem('who did it', actor);
  if (problem !== undefined) return problem;
  return { actor: (actor as string).trim(), reason: (reason as string).trim(), at };
}

function textProblem(what: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return `${what} is required`;
  if (value.length > MAX_TEXT) return `${what} is longer than ${MAX_TEXT} characters`;
  if (value.includes('\n') || value.includes('\r') || value.includes('\0')) return `${what} must be one line`;
  return undefined;
}

/** Reference names as templates read them (`{{ ref.NAME }}`); values are strings of up to 1,000 characters. */
export function parseReferenceValues(pairs: Readonly<Record<string, unknown>>): Record<string, string> | string {
  const entries = Object.entries(pairs);
  if (entries.length === 0) return 'give at least one NAME=VALUE (or clear the references instead)';
  for (const [name, value] of entries) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) return `"${name}" is not a reference name (letters, digits, _)`;
    if (typeof value !== 'string' || value === '' || value.length > 1000) {
      return `the value of ${name} must be a non-empty string of at most 1000 characters`;
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
