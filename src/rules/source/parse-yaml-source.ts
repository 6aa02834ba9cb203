import { LineCounter, parseDocument } from 'yaml';
import { describeYamlError } from './describe-yaml-error.js';
import { createLocator, type Locator } from './locate-path.js';
import type { ProblemSink } from './problem-sink.js';

export interface YamlSource {
  /** The document as plain data; undefined when the YAML could not be parsed at all. */
  readonly value: unknown;
  readonly locate: Locator;
}

/**
 * Parses YAML keeping node positions, so that later checks can point at `line:column`. Duplicate keys are
 * reported but do not stop the other checks; any other syntax error does, since the data is then unreliable.
 */
export function parseYamlSource(text: string, sink: ProblemSink): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate = createLocator(doc, lineCounter);
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  let fatal = false;
  // After a syntax error the parser's reading of the rest is unreliable (one mis-indented key makes it report
  // errors on the lines after), so only the first is reported.
  let reported = false;
  for (const error of doc.errors) {
    if (error.code === 'DUPLICATE_KEY') {
      const key = /^(?:"[^"\n]*"|'[^'\n]*'|[^:,{}\n]*)/.exec(text.slice(error.pos[0]))?.[0].trim() ?? '';
      sink.error(
        'duplicate_key',
        `duplicate key ${JSON.stringify(key)}: the later value would silently win`,
        at(error.pos[0]),
      );
    } else {
      fatal = true;
      const { message, line, column } = describeYamlError(text, error, (offset) => lineCounter.linePos(offset));
      if (!reported) sink.error('yaml_syntax', message, { line, column });
      reported = true;
    }
  }
  for (const warning of doc.warnings) sink.warning('yaml_warning', warning.message, at(warning.pos[0]));
  if (fatal) return { value: undefined, locate };
  try {
    // The default alias limit guards against "billion laughs" documents.
    return { value: doc.toJS({ maxAliasCount: 100 }), locate };
  } catch (error) {
    sink.error('yaml_syntax', error instanceof Error ? error.message : String(error), at(0));
    return { value: undefined, locate };
  }
}
