import type { PathSegment } from '../source/locate-path.js';

/** `routes[2].match.where[0]`, for messages. */
export function displayPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return '(top level)';
  let text = '';
  path.forEach((segment, index) => {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z0-9_$-]+$/.test(segment)) text += index === 0 ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  });
  return text;
}
