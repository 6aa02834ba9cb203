import type { WireError } from './journal-thread-protocol.js';

/** An error as the journal thread sends it back: name, message, stack, own cloneable props, cause. */
export function toWireError(error: unknown, depth = 0): WireError {
  if (!(error instanceof Error)) {
    return { name: 'Error', message: String(error), stack: undefined, props: {}, cause: undefined };
  }
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // Primitives always clone; anything else might not (a function, a socket), and is left behind.
    if (value === null || typeof value !== 'object' || Array.isArray(value)) props[key] = value;
  }
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    props,
    cause: error.cause === undefined || depth > 3 ? undefined : toWireError(error.cause, depth + 1),
  };
}
