import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export type PathSegment = string | number;

export interface Location {
  readonly line: number;
  readonly column: number;
}

/** Finds where a value (or its key) sits in the YAML text; a path that leaves the document stops at the deepest node found. */
export type Locator = (path: readonly PathSegment[], part?: 'value' | 'key') => Location;

export function createLocator(doc: Document, lineCounter: LineCounter): Locator {
  const at = (offset: number | undefined): Location => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };
  return (path, part = 'value') => {
    let node: unknown = doc.contents;
    let keyNode: unknown;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc);
      const step = childOf(node, segment);
      if (step === undefined) break;
      keyNode = step.key;
      // `key:` with nothing after it has no value node worth pointing at; the key is the better place.
      node = step.value ?? step.key;
    }
    const target = part === 'key' && keyNode !== undefined ? keyNode : node;
    return at(rangeStart(target) ?? rangeStart(keyNode));
  };
}

function childOf(node: unknown, segment: PathSegment): { key: unknown; value: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment));
    return pair === undefined ? undefined : { key: pair.key, value: hasRange(pair.value) ? pair.value : undefined };
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? undefined : { key: undefined, value: item };
  }
  return undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

function hasRange(node: unknown): boolean {
  const start = rangeStart(node);
  return start !== undefined && (node as Node).range?.[1] !== start;
}

function rangeStart(node: unknown): number | undefined {
  if (node === null || typeof node !== 'object' || !('range' in node)) return undefined;
  const range = (node as Node).range;
  return range?.[0];
}
