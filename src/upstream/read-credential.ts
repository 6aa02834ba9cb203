/**
 * A credential from the environment, trimmed (a value read from a file often ends in a newline), or why it
 * cannot be used. The message names the variable, never the value; a value with spaces or control characters
 * is refused before any request, since it cannot travel in a header (and an HTTP library's complaint about
 * the header would quote it).
 */
export function readCredential(env: Readonly<Record<string, string | undefined>>, name: string): string | Error {
  const value = env[name]?.trim() ?? '';
  if (value === '') return new Error(`${name} is not set`);
  if (!/^[\x21-\x7e]+$/.test(value)) return new Error(`${name} holds spaces or characters a header cannot carry`);
  return value;
}
