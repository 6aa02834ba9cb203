/**
 * Liquid ends its messages with `, line:2, col:8`; say it the way the rest of Switchyard does, and say it is
 * inside the template (the rules loader adds where the template itself sits in the rules file).
 */
export function describeLiquidError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const located = /^(.*), line:(\d+), col:(\d+)$/s.exec(error.message);
  if (located === null) return error.message;
  return `${located[1]} (template line ${located[2]}, column ${located[3]})`;
}
