/** Percent-decodes `text`; a literal `%` that is not valid percent-encoding leaves it as written. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
