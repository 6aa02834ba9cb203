/**
 * The forms a secret travels in, each of which a receiver (or an error message) may echo back: as written,
 * JSON-escaped (also with `\/`, as PHP writes it), percent-encoded (`encodeURIComponent`, and form encoding
 * with `+` for a space), and base64 and base64url (how Basic auth, `user:pass`, and SMTP AUTH carry it).
 * Base64 forms come with and without the `=` padding: an echo's padding may be escaped or cut.
 */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const percent = encodeURIComponent(secret);
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set([
    secret,
    json,
    json.replaceAll('/', '\\/'),
    percent,
    percent.replaceAll('%20', '+'),
    new URLSearchParams([['', secret]]).toString().slice(1),
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
  ]);
  return [...forms];
}
