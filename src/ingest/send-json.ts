import type { ServerResponse } from 'node:http';

/**
 * Writes a JSON answer. `close` asks the client to drop the connection: used when we stopped reading a
 * body part-way, since the rest of it would otherwise be parsed as the next request.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  close = false,
): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...(close ? { connection: 'close' } : {}),
    ...headers,
  });
  res.end(payload);
}

/** The one error body shape: `{"error": {"code", "message"}}`. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  close = false,
): void {
  sendJson(res, status, { error: { code, message } }, headers, close);
}
