import { createHmac } from 'node:crypto';
import { SwitchyardError } from '../switchyard-error.js';

export interface SentEvent {
  readonly id: string;
  /** How many deliveries the daemon queued for it. */
  readonly deliveries: number;
}

/**
 * POSTs one envelope as the monitoring service does: `X-Service-Signature: sha256=<hex HMAC-SHA256 of the
 * exact body>`. Anything but a 200 is an error, since the demo's events are all valid.
 */
export async function sendSignedEvent(url: string, secret: string, body: string): Promise<SentEvent> {
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${signature}` },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) {
    throw new SwitchyardError('demo_ingest_failed', `the daemon answered ${response.status}: ${text.slice(0, 200)}`);
  }
  const answer = JSON.parse(text) as { id: string; deliveries: number };
  return { id: answer.id, deliveries: answer.deliveries };
}
