import type { Liquid } from 'liquidjs';
import { SwitchyardError } from '../../switchyard-error.js';
import { compileTemplateWith } from '../../templates/compile-template.js';
import { createLiquid } from '../../templates/create-liquid.js';
import type { Template, TemplateEscape, TemplateTree } from '../../templates/template.js';
import { displayPath } from '../schema/display-path.js';
import type { Locator, PathSegment } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';

export interface TemplateCompiler {
  /** Compiles the template at `path` (absolute), or reports its syntax error there and returns undefined. */
  template(text: string, escape: TemplateEscape, path: readonly PathSegment[]): Template | undefined;
  /** Compiles every string leaf of a structure; reports each broken leaf and returns undefined if any. */
  tree(value: unknown, escape: TemplateEscape, path: readonly PathSegment[]): TemplateTree | undefined;
}

export interface TemplateCompilerDeps {
  readonly locate: Locator;
  readonly sink: ProblemSink;
  /** `from ${VAR}` when the string had environment references expanded into it. */
  readonly originOf: (path: readonly PathSegment[]) => string | undefined;
  /** The value as written in the file, before `${VAR}` expansion. */
  readonly rawValue: (path: readonly PathSegment[]) => unknown;
}

/**
 * Compiles the templates of a rules file, one Liquid engine per escape mode for the whole file. A string
 * that had `${VAR}` values pasted in is checked as written first: Liquid quotes the template in its
 * messages, and an error must never show a secret.
 */
export function createTemplateCompiler(deps: TemplateCompilerDeps): TemplateCompiler {
  const engines = new Map<TemplateEscape, Liquid>();
  const engine = (escape: TemplateEscape): Liquid => {
    let liquid = engines.get(escape);
    if (liquid === undefined) engines.set(escape, (liquid = createLiquid(escape)));
    return liquid;
  };
  const syntaxMessage = (error: SwitchyardError, escape: TemplateEscape, path: readonly PathSegment[]): string => {
    const origin = deps.originOf(path);
    if (origin === undefined) return error.message;
    const raw = deps.rawValue(path);
    try {
      if (typeof raw === 'string') compileTemplateWith(engine(escape), raw);
    } catch (rawError) {
      if (rawError instanceof SwitchyardError) return rawError.message;
    }
    return `the value substituted ${origin} breaks the template (it holds Liquid syntax such as {{ or {%)`;
  };
  const template = (text: string, escape: TemplateEscape, path: readonly PathSegment[]): Template | undefined => {
    try {
      return compileTemplateWith(engine(escape), text);
    } catch (error) {
      if (!(error instanceof SwitchyardError)) throw error;
      const message = `${displayPath(path)}: ${syntaxMessage(error, escape, path)}`;
      deps.sink.error('template_syntax', message, deps.locate(path));
      return undefined;
    }
  };
  const tree = (value: unknown, escape: TemplateEscape, path: readonly PathSegment[]): TemplateTree | undefined => {
    let ok = true;
    const walk = (node: unknown, at: readonly PathSegment[]): TemplateTree => {
      if (typeof node === 'string') {
        const compiled = template(node, escape, at);
        if (compiled !== undefined) return compiled;
        ok = false;
        return null;
      }
      if (Array.isArray(node)) return node.map((child, index) => walk(child, [...at, index]));
      if (node !== null && typeof node === 'object') {
        // fromEntries keeps a YAML key "__proto__" a plain key.
        return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, [...at, key])]));
      }
      // YAML data holds nothing else than strings, lists, maps, numbers, booleans and null.
      return node as number | boolean | null;
    };
    const compiled = walk(value, path);
    return ok ? compiled : undefined;
  };
  return { template, tree };
}
