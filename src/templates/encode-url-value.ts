/** A UTF-16 surrogate without its pair, which `encodeURIComponent` refuses (URIError) and UTF-8 cannot hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A value inserted into a URL template, percent-encoded as one path segment or query value
 * (https://url.spec.whatwg.org/#component-percent-encode-set): `/`, `?`, `#`, `&`, `=`, `@`, `:`, `%` and `\`
 * are encoded, so the value can neither end its segment nor reach the host. Dots stay as they are; a segment
 * that is only `.` or `..` is refused after rendering (render-url.ts), since `%2E%2E` means `..` to URL parsers.
 */
export function encodeUrlValue(text: string): string {
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));
}
