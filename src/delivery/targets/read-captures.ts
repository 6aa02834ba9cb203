import type { IncomingHttpHeaders } from 'node:http';
import type { CaptureMiss } from '../../lifecycle/capture-miss.js';
import type { HttpCapture } from '../../rules/rules.js';
import { ANSWER_BOUND_BYTES } from '../http/create-http-sender.js';

export interface CaptureReading {
  readonly captured: Readonly<Record<string, string>>;
  /** Names whose value the answer did not give, each with the reason. */
  readonly missing: readonly CaptureMiss[];
}

const OVER_BOUND = `the answer is over ${ANSWER_BOUND_BYTES / 1024 / 1024} MiB, more than captures read`;

/**
 * The values a successful answer gives for `capture:` (issue 14): a string, number or boolean at a path of the
 * JSON body, or a header. The body is the whole answer up to the sender's bound (1 MiB: an answer that
 * repeats a whole ticket, as Redmine's does, is several KiB); a longer one was cut, so no body value is read
 * from it rather than parsing a part.
 */
export function readCaptures(
  captures: readonly HttpCapture[],
  answer: { readonly headers: IncomingHttpHeaders; readonly body: Buffer; readonly cut?: boolean },
): CaptureReading {
  const captured: Record<string, string> = {};
  const missing: CaptureMiss[] = [];
  let json: { value: unknown } | undefined | null;
  for (const capture of captures) {
    let value: unknown;
    if (capture.from === 'header') {
      const header = answer.headers[capture.header];
      value = Array.isArray(header) ? header.join(', ') : header;
    } else {
      if (answer.cut === true) {
        missing.push({ name: capture.name, reason: OVER_BOUND });
        continue;
      }
      if (json === undefined) json = parseJson(answer.body);
      if (json === null) {
        missing.push({ name: capture.name, reason: 'the answer is not JSON' });
        continue;
      }
      value = capture.path.reduce<unknown>(step, json.value);
    }
    if (typeof value === 'string' && value.includes('\0')) {
      // PostgreSQL's text and jsonb cannot hold it: recording the attempt would fail, and the delivery (a
      // ticket already opened) would be sent again and again.
      missing.push({ name: capture.name, reason: 'the value holds a NUL character, which the journal cannot keep' });
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      Object.defineProperty(captured, capture.name, { value: String(value), enumerable: true });
    } else {
      const absent = value === undefined || value === null;
      const where = capture.from === 'header' ? `header ${capture.header}` : `body.${capture.path.join('.')}`;
      missing.push({
        name: capture.name,
        reason: absent ? `no ${where} in the answer` : `${where} is not a string, number or boolean`,
      });
    }
  }
  return { captured, missing };
}

function step(node: unknown, name: string): unknown {
  if (typeof node !== 'object' || node === null || !Object.hasOwn(node, name)) return undefined;
  return (node as Record<string, unknown>)[name];
}

function parseJson(body: Buffer): { value: unknown } | null {
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return null;
  }
}
