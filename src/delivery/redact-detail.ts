const MAX_DETAIL = 300;
// Scheme, optional user:password@, host[:port]; the rest (path, query) may carry a token (Slack webhook URLs do).
const URL_PATTERN = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/@]*@)?([^\s/?#"'<>]+)[^\s"'<>]*/gi;

/**
 * Makes an error or response excerpt safe to store and show: every known secret masked, URLs cut to their
 * scheme and host, control characters flattened, at most 300 characters.
 */
export function redactDetail(text: string, secrets: readonly string[]): string {
  let safe = text;
  // Longest first, so a secret containing another is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) safe = safe.split(secret).join('[redacted]');
  }
  safe = safe.replace(URL_PATTERN, (_match, scheme: string, host: string) => `${scheme}${host}/…`);
  // Control characters would let a receiver's answer forge lines in a terminal listing or a log.
  // eslint-disable-next-line no-control-regex
  safe = safe.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return safe.length <= MAX_DETAIL ? safe : `${safe.slice(0, MAX_DETAIL - 1)}…`;
}
