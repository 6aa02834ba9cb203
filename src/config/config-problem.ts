import { isNode, type LineCounter, type Document } from 'yaml';

/** One thing wrong with the config, named by key (`sources.monitor.secrets[0]`) and, when known, position. */
export interface ConfigProblem {
  readonly key: string;
  readonly message: string;
  /** `file:line:column`, or the environment variable the value came from. */
  readonly where: string;
}

/** Renders a key path the way an operator would write it: `sources.monitor.secrets[0]`. */
export function formatKey(parts: readonly (string | number)[]): string {
  return parts.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  );
}

/** Where in the YAML file a key path sits (its value, or the closest existing parent). */
export function locate(doc: Document, lines: LineCounter, file: string, parts: readonly (string | number)[]): string {
  for (let depth = parts.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(parts.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const { line, col } = lines.linePos(node.range[0]);
      return `${file}:${line}:${col}`;
    }
  }
  return file;
}
