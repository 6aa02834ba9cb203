import type { Response } from 'express';

/** The one error body shape, as on the ingest path: `{"error": {"code", "message"}}`. */
export function sendApiError(
  res: Response,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.status(status).set(headers).json({ error: { code, message } });
}
