const MAX_SHOWN = 60;

/** A short rendering of an event value for explanations: JSON, cut to a readable length. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'absent';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
