/**
 * Structured clone turns a Buffer into a plain Uint8Array; the journal's callers and better-sqlite3 want
 * Buffers (`body.toString('utf8')`, BLOB binding). Walks arrays and plain objects and swaps, in place, each
 * Uint8Array for a Buffer over the same memory (no copy). Only for values fresh from a message.
 */
export function reviveBuffers(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Uint8Array) {
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = reviveBuffers(value[i]);
    return value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value; // Map, Date...: nothing to revive
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (typeof field === 'object' && field !== null) record[key] = reviveBuffers(field);
  }
  return value;
}
