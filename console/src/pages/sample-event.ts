/** The event the rule tester starts with, when none is picked: an envelope as a monitor would send it. */
export function sampleEvent(now: Date): string {
  const envelope = {
    event: 'incident.created',
    timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    data: { id: 'inc_1', severity: 'high', title: 'Disk full on db-1', host: 'db-1' },
  };
  return JSON.stringify(envelope, null, 2);
}

/** The offset in `text` of 1-based `line` and `column`, to put the cursor on a problem. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + Math.max(0, column - 1));
}
