import type { IncomingHttpHeaders } from 'node:http';
import type { HttpCapture } from '../../rules/rules.js';

export interface CaptureReading {
  readonly captured: Readonly<Record<string, string>>;
  /** Names whose value the answer did not hold (or held as an object or list). */
  readonly missing: readonly string[];
}

/**
 * The values a successful answer gives for `capture:` (issue 14): a string, number or boolean at a path of the
 * JSON body, or a header. The body is what the sender kept of it (its first 4 KiB), which holds the id in the
 * answers ticketing APIs give to a create.
 */
export function readCaptures(
  captures: readonly HttpCapture[],
  answer: { readonly headers: IncomingHttpHeaders; readonly body: Buffer },
): CaptureReading {
  const captured: Record<string, string> = {};
  const missing: string[] = [];
  let json: unknown;
  let parsed = false;
  for (const capture of captures) {
    let value: unknown;
    if (capture.from === 'header') {
      const header = answer.headers[capture.header];
      value = Array.isArray(header) ? header.join(', ') : header;
    } else {
      if (!parsed) [json, parsed] = [parseJson(answer.body), true];
      value = capture.path.reduce<unknown>(step, json);
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      Object.defineProperty(captured, capture.name, { value: String(value), enumerable: true });
    } else missing.push(capture.name);
  }
  return { captured, missing };
}

function step(node: unknown, name: string): unknown {
  if (typeof node !== 'object' || node === null || !Object.hasOwn(node, name)) return undefined;
  return (node as Record<string, unknown>)[name];
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
