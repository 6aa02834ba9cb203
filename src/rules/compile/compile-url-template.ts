import type { UrlTemplate } from '../rules.js';
import type { PathSegment } from '../source/locate-path.js';
import { checkUrl } from './check-url.js';
import { LIQUID, liquidRefs } from './liquid-refs.js';
import type { TargetContext } from './target-context.js';

/** `scheme://user:password@host:port`, up to the path, query or fragment. */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

export interface CompiledUrl {
  readonly url: string;
  readonly template: UrlTemplate | null;
}

/**
 * An HTTP target's URL (issue 14), which may hold templates in its path and query only: an event value must
 * never choose where a request goes, or with which credentials. The structure is read from the URL with each
 * Liquid part blanked out, so slashes inside a tag (`{{ a | split: '/' }}`) do not count as segments. Messages
 * never quote the URL: it may hold a secret.
 */
export function compileUrlTemplate(value: unknown, target: TargetContext, ...path: PathSegment[]): CompiledUrl {
  if (typeof value !== 'string') return { url: '', template: null };
  if (!value.includes('{{') && !value.includes('{%')) {
    // The schema lets spaces through for templates (`{{ ref.ticket }}`); outside them a URL has none.
    if (/\s/.test(value) && !value.includes('${') && !target.isBroken(...path)) {
      target.error('bad_url', 'is not a valid URL (it holds a space or line break)', path);
      return { url: value, template: null };
    }
    return { url: checkUrl(value, target, ...path), template: null };
  }
  if (target.isBroken(...path)) return { url: value, template: null };
  const blanked = value.replace(LIQUID, (part) => '\u0000'.repeat(part.length));
  const authorityLength = AUTHORITY.exec(blanked)?.[0].length ?? 0;
  // Unset `${VAR}`s (check --no-env) leave the structure unknown; it is checked when they are set.
  if (!value.includes('${')) {
    if (blanked.slice(0, authorityLength).includes('\u0000') || authorityLength === 0) {
      const message = 'templates may appear only in the path and query, not in the scheme, user, host or port';
      target.error('template_in_host', message, path);
    } else if (/\s/.test(blanked) || !URL.canParse(blanked.replaceAll('\u0000', 'x'))) {
      target.error('bad_url', 'is not a valid URL (outside its templates)', path);
    }
  }
  const template = target.template(value, 'url', ...path);
  if (template === null) return { url: value, template: null };
  const pathPart = blanked.slice(authorityLength).split(/[?#]/, 1)[0] ?? '';
  const segments =
    pathPart === ''
      ? []
      : pathPart
          .split('/')
          .slice(1)
          .map((segment) => segment.includes('\u0000'));
  return { url: value, template: { template, authorityLength, segments, refs: liquidRefs(value) } };
}
