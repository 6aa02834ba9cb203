/**
 * The human part of an error answer, whatever its shape: `{"error": {"message"}}` (Switchyard's own form),
 * `{"error": "invalid_grant", "error_description"}` (OAuth 2.0, RFC 6749 §5.2), `{"message"}`, `{"detail"}`
 * (RFC 9457 problem details), `{"errors": [{"message"}]}`, or plain text. Empty when there is none.
 */
export function readErrorMessage(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.trim();
  }
  if (typeof body !== 'object' || body === null) return text.trim();
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'object' && error !== null) {
    const nested = error as Record<string, unknown>;
    const message = stringOf(nested.message);
    const code = stringOf(nested.code);
    return message !== '' && code !== '' ? `${code}: ${message}` : message || code;
  }
  if (typeof error === 'string') {
    const description = stringOf(record.error_description);
    return description === '' ? error : `${error}: ${description}`;
  }
  const first = Array.isArray(record.errors) ? (record.errors[0] as Record<string, unknown> | undefined) : undefined;
  return stringOf(record.message) || stringOf(record.detail) || stringOf(first?.message) || stringOf(record.title);
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
