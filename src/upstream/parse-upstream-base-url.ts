const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The monitoring service's base URL (`--base-url`), or why it is refused. Requests to it carry the API key, so
 * plain `http:` is accepted for loopback only (a local stand-in or tunnel), and a URL with credentials, a query
 * or a fragment is refused: the request paths are appended to it as they are.
 */
export function parseUpstreamBaseUrl(text: string): URL | string {
  if (!URL.canParse(text)) return `--base-url: not a valid URL`;
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `--base-url: must be https:// (got ${url.protocol})`;
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    return '--base-url: must be https:// (plain http would send the API key unencrypted; allowed for loopback only)';
  }
  if (url.username !== '' || url.password !== '') return '--base-url: must not carry credentials';
  if (url.search !== '' || url.hash !== '') return '--base-url: must not have a query or a fragment';
  if (url.pathname.includes('//')) return '--base-url: must not have an empty path segment (//)';
  return url;
}
