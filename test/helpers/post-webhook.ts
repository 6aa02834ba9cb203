import { createHmac } from 'node:crypto';

export function sign(body: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface WebhookAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

/** POSTs a body to `/webhooks/<source>` with the given headers (signature and content type by default). */
export async function postWebhook(
  baseUrl: string,
  body: Buffer | string,
  options: {
    source?: string;
    signature?: string | null;
    secret?: string;
    contentType?: string | null;
    method?: string;
    /** Further request headers (Content-Encoding, ...). */
    headers?: Record<string, string>;
  } = {},
): Promise<WebhookAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const signature = options.signature === undefined ? sign(body, options.secret ?? 'unset') : options.signature;
  if (signature !== null) headers['x-service-signature'] = signature;
  const response = await fetch(`${baseUrl}/webhooks/${options.source ?? 'monitor'}`, {
    method: options.method ?? 'POST',
    headers,
    ...(options.method === 'GET' || options.method === 'HEAD' ? {} : { body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** A distinct, valid envelope (distinct bodies do not take the dedupe path). */
export function envelope(event: string, data: Record<string, unknown>, timestamp = '2026-11-22T10:00:00Z'): string {
  return JSON.stringify({ event, timestamp, data });
}
