import { liquidRefs } from '../compile/liquid-refs.js';
import { displayPath } from '../schema/display-path.js';
import type { Locator, PathSegment } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';
import { didYouMean } from './closest-name.js';

const SITUATIONS = ['create', 'update', 'resolve'] as const;
/** The options of a request (or of a target's one request) that templates may use `ref` in. */
const TEMPLATED = ['url', 'body', 'raw_body'] as const;

/**
 * Checks how an HTTP target's templates use `ref` (issue 14): a `ref.X` that no request of the target captures
 * is an error, since every delivery whose URL needs it is dead-lettered and a body gets an empty value; a
 * `capture` key directly inside a request's `body` is a warning, since it is sent as JSON and captures nothing
 * (usually `capture:` indented one level too deep).
 */
export function checkLifecycleRefs(targets: Readonly<Record<string, unknown>>, locate: Locator, sink: ProblemSink) {
  for (const [name, target] of Object.entries(targets)) {
    if (!isObject(target) || target.type !== 'http') continue;
    const requests = isObject(target.requests) ? target.requests : undefined;
    const places: [PathSegment[], Record<string, unknown>][] =
      requests === undefined
        ? [[['targets', name], target]]
        : SITUATIONS.flatMap((situation) => {
            const request = requests[situation];
            return isObject(request) ? [[['targets', name, 'requests', situation], request]] : [];
          });
    const captured = new Set(places.flatMap(([, request]) => Object.keys(capturesOf(request))));
    for (const [at, request] of places) {
      for (const option of TEMPLATED) {
        for (const [path, text] of strings(request[option], [...at, option])) {
          for (const ref of liquidRefs(text).filter((used) => !captured.has(used))) {
            sink.error('uncaptured_ref', `${displayPath(path)}: ${describe(ref, captured)}`, locate(path));
          }
        }
      }
      if (requests !== undefined && isObject(request.body) && 'capture' in request.body) {
        const path = [...at, 'body', 'capture'];
        const message = `${displayPath(path)}: capture inside body is sent as part of the JSON and captures nothing; to capture, give it beside body (one level up)`;
        sink.warning('capture_in_body', message, locate(path, 'key'));
      }
    }
  }
}

function describe(ref: string, captured: ReadonlySet<string>): string {
  const has = captured.size === 0 ? 'captures nothing' : `captures only ${[...captured].join(', ')}`;
  return `uses ref.${ref}, but no request of this target captures ${ref} (it ${has})${didYouMean(ref, captured)}`;
}

function capturesOf(request: Record<string, unknown>): Record<string, unknown> {
  return isObject(request.capture) ? request.capture : {};
}

/** Every string in a YAML value, with its path: a body is a tree whose leaves are templates. */
function strings(value: unknown, path: PathSegment[]): [PathSegment[], string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, [...path, index]));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => strings(item, [...path, key]));
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
