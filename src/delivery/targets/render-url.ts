import type { UrlTemplate } from '../../rules/rules.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { TemplateContext } from '../../templates/template.js';

/** What URL parsers read as `.` or `..` (https://url.spec.whatwg.org/#double-dot-path-segment), encoded or not. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * A templated URL for one attempt. Inserted values are percent-encoded (the `url` escape), so they cannot add
 * a `/`, `?` or `#`, and the scheme, user, host and port hold no template (the compiler refused it). What an
 * encoded value can still do is be empty or a dot segment, which would drop or climb a path segment: those
 * are refused here, as is a path whose segment count differs from the URL as written (a `{% if %}` around a
 * slash). Throws `template_render`, which dead-letters the delivery; messages never quote the URL.
 */
export function renderUrl(url: UrlTemplate, context: TemplateContext): URL {
  const text = url.template.render(context);
  const path = text.slice(url.authorityLength).split(/[?#]/, 1)[0] ?? '';
  const segments = path === '' ? [] : path.split('/').slice(1);
  if (segments.length !== url.segments.length) {
    throw failure(`its path has ${segments.length} segments where the URL as written has ${url.segments.length}`);
  }
  segments.forEach((segment, index) => {
    if (!url.segments[index]) return;
    if (segment === '') throw failure(`path segment ${index + 1} is empty (a value missing from the event?)`);
    if (DOT_SEGMENT.test(segment))
      throw failure(`path segment ${index + 1} is "${segment}", which would climb the path`);
  });
  if (!URL.canParse(text)) throw failure('it is not a valid URL');
  return new URL(text);
}

function failure(reason: string): SwitchyardError {
  return new SwitchyardError('template_render', `the URL template rendered wrong: ${reason}`);
}
