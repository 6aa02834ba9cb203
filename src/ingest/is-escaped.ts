/** Whether the character at `at` of a JSON text follows an odd number of backslashes (it is escaped). */
export function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}
