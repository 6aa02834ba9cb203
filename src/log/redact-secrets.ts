const MASK = '[redacted]';

/**
 * Masks every secret in a finished JSON log line. Working on the line, not on the record's fields, means
 * a secret is caught whichever field or nesting it reached, winston's own fields (the level it filters
 * on) are never touched, and the record is not copied on the hot path. Secrets are searched in their
 * JSON-escaped form, which is how they appear inside the line.
 */
export function redactSecrets(line: string, escapedSecrets: ReadonlySet<string>): string {
  let result = line;
  for (const secret of escapedSecrets) if (result.includes(secret)) result = result.split(secret).join(MASK);
  return result;
}

/** The form a secret takes inside a JSON string. */
export function escapeForJson(secret: string): string {
  return JSON.stringify(secret).slice(1, -1);
}
