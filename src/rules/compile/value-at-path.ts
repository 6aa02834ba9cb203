import type { PathSegment } from '../source/locate-path.js';

/** The value at `path` in plain YAML data, or undefined when the path leaves it. Own properties only. */
export function valueAtPath(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<PathSegment, unknown>)[segment];
  }
  return node;
}
