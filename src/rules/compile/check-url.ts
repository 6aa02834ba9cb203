import type { PathSegment } from '../source/locate-path.js';
import type { TargetContext } from './target-context.js';

/**
 * The schema only checks a URL's scheme; this checks that it parses, so a typo is found by `check` rather
 * than at the first delivery. The message never quotes the URL: it may carry a secret (a webhook path, a
 * password).
 */
export function checkUrl(value: unknown, target: TargetContext, ...path: PathSegment[]): string {
  if (typeof value !== 'string') return '';
  if (!target.isBroken(...path) && !value.includes('${') && !URL.canParse(value)) {
    target.error('bad_url', 'is not a valid URL', path);
  }
  return value;
}
