/** What the `yaml` package reports for one syntax error (`YAMLError`, with `pos` as text offsets). */
export interface YamlErrorLike {
  readonly code: string;
  readonly message: string;
  readonly pos: readonly [number, number];
}

export interface YamlSyntaxProblem {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

interface TextLine {
  readonly text: string;
  /** 1-based column of the first non-space character. */
  readonly indent: number;
  /** The key on the line (after a list's "- "), if it has one. */
  readonly key: string | undefined;
  /** 1-based column where that key (or the item) starts. */
  readonly keyColumn: number;
}

/**
 * The parser's error in plain words, on the line of the mistake. The parser notices a mis-indented key only
 * at the line before it (the value it would have to continue) or at a comment above it, and calls it e.g.
 * "Nested mappings are not allowed in compact mappings"; the mistake is the line that does not line up.
 * Messages name keys but never quote values, which may hold secrets.
 */
export function describeYamlError(
  text: string,
  error: YamlErrorLike,
  linePos: (offset: number) => { line: number; col: number },
): YamlSyntaxProblem {
  const lines = text.split(/\r?\n/).map(describeLine);
  const at = linePos(error.pos[0]);
  const lineAt = (n: number) => lines[n - 1];
  const current = lineAt(at.line);
  const next = nextContentLine(lines, at.line + 1);
  const nextIndent = next === undefined ? 0 : (lineAt(next)?.indent ?? 0);
  const deeper = current !== undefined && nextIndent > current.keyColumn;

  switch (error.code) {
    case 'TAB_AS_INDENT':
      return { line: at.line, column: 1, message: 'a tab indents this line: YAML indentation must be spaces' };
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
      if (error.message.startsWith('Flow ')) return unclosedFlow(text, error.pos[0], linePos);
      if (error.message.startsWith('Missing closing')) return unclosedQuote(lines, at.line, error.message);
      if (error.message.startsWith('Implicit map keys need')) break;
      if (/same column|without - indicator/.test(error.message)) {
        return misaligned(lines, nextContentLine(lines, at.line) ?? at.line);
      }
      break;
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY': {
      if (current !== undefined && /^\s*-[^\s-]/.test(current.text)) {
        return {
          line: at.line,
          column: current.indent + 1,
          message: 'a space is missing after "-" (write - key: value)',
        };
      }
      if (error.message.startsWith('A block sequence')) {
        return {
          ...at,
          column: at.col,
          message: 'a list item ("- ") where a key was expected: one level cannot mix keys and list items',
        };
      }
      const colon = current?.text.search(/:(?!\s|$)/) ?? -1;
      if (current !== undefined && current.key === undefined && colon >= 0) {
        return { line: at.line, column: colon + 2, message: 'a space is missing after ":" (write key: value)' };
      }
      if (current !== undefined && current.key === undefined && !/^\s*-\s/.test(current.text)) {
        return { line: at.line, column: at.col, message: 'this key needs a ":" after it (key: value)' };
      }
      if (deeper && next !== undefined) return misaligned(lines, next);
      return { line: at.line, column: at.col, message: 'this value contains ": ": put the value in quotes' };
    }
  }
  if (error.message.startsWith('Implicit map keys need')) {
    return { line: at.line, column: at.col, message: 'this key needs a ":" after it (key: value)' };
  }
  return { line: at.line, column: at.col, message: `YAML syntax: ${error.message}` };
}

function describeLine(text: string): TextLine {
  const indent = text.search(/\S/) + 1;
  const match = /^(\s*(?:-\s+)?)((?:"[^"]*"|'[^']*'|[^\s#:'"{[\]},-][^:#]*?)):(?:\s|$)/.exec(text);
  const item = /^\s*-\s+/.exec(text);
  return {
    text,
    indent,
    key: match?.[2]?.replace(/^["']|["']$/g, ''),
    keyColumn: match !== null ? (match[1]?.length ?? 0) + 1 : item !== null ? item[0].length + 1 : indent,
  };
}

function isContent(line: TextLine | undefined): boolean {
  return line !== undefined && line.indent > 0 && !line.text.trimStart().startsWith('#');
}

function nextContentLine(lines: readonly TextLine[], from: number): number | undefined {
  for (let n = from; n <= lines.length; n++) if (isContent(lines[n - 1])) return n;
  return undefined;
}

/** A key or list item that does not line up: name the one above it that it most likely belongs with. */
function misaligned(lines: readonly TextLine[], lineNo: number): YamlSyntaxProblem {
  const line = lines[lineNo - 1];
  if (line === undefined) return { line: lineNo, column: 1, message: 'bad indentation' };
  const isItem = /^\s*-(?:\s|$)/.test(line.text);
  const column = isItem ? line.indent : line.keyColumn;
  let best: { line: number; column: number; key: string | undefined } | undefined;
  for (let n = lineNo - 1; n >= 1; n--) {
    const above = lines[n - 1];
    if (above === undefined || !isContent(above)) continue;
    const aboveItem = /^\s*-(?:\s|$)/.test(above.text);
    const candidate = isItem
      ? aboveItem
        ? { line: n, column: above.indent, key: undefined }
        : undefined
      : above.key !== undefined
        ? { line: n, column: above.keyColumn, key: above.key }
        : undefined;
    if (
      candidate !== undefined &&
      candidate.column !== column &&
      (best === undefined || Math.abs(candidate.column - column) < Math.abs(best.column - column))
    ) {
      best = candidate;
    }
    if (above.indent < column) break;
  }
  if (isItem) {
    const where = best === undefined ? '' : `, but the "-" on line ${best.line} is at column ${best.column}`;
    return {
      line: lineNo,
      column,
      message: `bad indentation: this "-" is at column ${column}${where}; items of one list must start in the same column`,
    };
  }
  const what = line.key === undefined ? 'this line' : `"${line.key}"`;
  const where =
    best === undefined ? '' : `, but "${best.key ?? ''}" on line ${best.line} starts at column ${best.column}`;
  return {
    line: lineNo,
    column,
    message: `bad indentation: ${what} starts at column ${column}${where}; keys of one map must start in the same column`,
  };
}

/** The `{` or `[` still open at `offset` (quotes skipped), which the parser reports only at the next key. */
function unclosedFlow(
  text: string,
  offset: number,
  linePos: (offset: number) => { line: number; col: number },
): YamlSyntaxProblem {
  const open: number[] = [];
  let quote: string | undefined;
  for (let i = 0; i < offset && i < text.length; i++) {
    const char = text[i];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') i++;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{' || char === '[') open.push(i);
    else if (char === '}' || char === ']') open.pop();
    else if (char === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) i = text.indexOf('\n', i) - 1;
    if (i < -1) break;
  }
  const start = open.at(-1);
  if (start === undefined) {
    return { ...toLocation(linePos(offset)), message: 'a "{" or "[" list is not closed before this line' };
  }
  const closer = text[start] === '{' ? '}' : ']';
  return {
    ...toLocation(linePos(start)),
    message: `this "${text[start] ?? ''}" is not closed: add "${closer}" at the end of the value`,
  };
}

/** The parser reports a missing closing quote where the text ends; the quote was opened on an earlier line. */
function unclosedQuote(lines: readonly TextLine[], lineNo: number, message: string): YamlSyntaxProblem {
  const quote = message.includes("'") ? "'" : '"';
  for (let n = Math.min(lineNo, lines.length); n >= 1; n--) {
    const text = lines[n - 1]?.text ?? '';
    if (text.split(quote).length % 2 === 0) {
      return { line: n, column: text.lastIndexOf(quote) + 1, message: `this ${quote} is never closed` };
    }
  }
  return { line: lineNo, column: 1, message: `a ${quote} is never closed` };
}

function toLocation(position: { line: number; col: number }): { line: number; column: number } {
  return { line: position.line, column: position.col };
}
