import type { Template, TemplateEscape, TemplateTree } from '../../templates/template.js';
import { displayPath } from '../schema/display-path.js';
import type { Locator, PathSegment } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';
import type { TemplateCompiler } from './create-template-compiler.js';

/** What compiling one target needs; every path is relative to the target (`targets.<name>`). */
export interface TargetContext {
  readonly name: string;
  /** True when the schema rejected the value at this path or below it: such parts are not checked further. */
  isBroken(...path: PathSegment[]): boolean;
  /** Reports a located error, its message prefixed with the option's path like schema errors are. */
  error(code: string, message: string, path: readonly PathSegment[], part?: 'value' | 'key'): void;
  warning(code: string, message: string, path: readonly PathSegment[]): void;
  /** The compiled template, or null when the option is absent, rejected by the schema, or has a syntax error. */
  template(value: unknown, escape: TemplateEscape, ...path: PathSegment[]): Template | null;
  tree(value: unknown, escape: TemplateEscape, ...path: PathSegment[]): TemplateTree | null;
}

export interface TargetContextDeps {
  readonly locate: Locator;
  readonly sink: ProblemSink;
  readonly templates: TemplateCompiler;
  /** Takes an absolute path (`['targets', name, ...]`). */
  readonly isBroken: (path: readonly PathSegment[]) => boolean;
}

export function createTargetContext(name: string, deps: TargetContextDeps): TargetContext {
  const absolute = (path: readonly PathSegment[]): PathSegment[] => ['targets', name, ...path];
  const isBroken = (...path: PathSegment[]) => deps.isBroken(absolute(path));
  return {
    name,
    isBroken,
    error: (code, message, path, part = 'value') =>
      deps.sink.error(code, `${displayPath(absolute(path))}: ${message}`, deps.locate(absolute(path), part)),
    warning: (code, message, path) =>
      deps.sink.warning(code, `${displayPath(absolute(path))}: ${message}`, deps.locate(absolute(path))),
    template: (value, escape, ...path) =>
      typeof value !== 'string' || isBroken(...path)
        ? null
        : (deps.templates.template(value, escape, absolute(path)) ?? null),
    tree: (value, escape, ...path) =>
      value === undefined || isBroken(...path) ? null : (deps.templates.tree(value, escape, absolute(path)) ?? null),
  };
}
