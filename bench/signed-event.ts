import { createHmac, randomBytes } from 'node:crypto';

/** The header the upstream monitoring service signs with: `sha256=<lowercase hex HMAC-SHA256 of the raw body>`. */
export const SIGNATURE_HEADER = 'x-service-signature';

export function sign(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface SignedEvent {
  readonly body: string;
  readonly signature: string;
}

/**
 * Returns a generator of distinct signed `incident.created` events. Every body differs (a random run id per
 * factory + a counter), so none takes the daemon's dedupe path, also across rounds and load processes. The
 * rest of the incident id comes from Math.random: it only has to vary, and crypto randomness per event
 * would make the load generator, not the server, the bottleneck.
 */
export function createEventFactory(secret: string): () => SignedEvent {
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  return () => {
    counter += 1;
    const body = JSON.stringify({
      event: 'incident.created',
      timestamp: new Date().toISOString(),
      data: {
        incident_id: `inc_${run}_${counter}_${Math.random().toString(36).slice(2, 8)}`,
        // 50 hosts: the noise benchmark throttles and groups by host.
        host: `host-${counter % 50}`,
        severity: 'high',
        title: `Benchmark incident ${counter}: suspicious login burst`,
      },
    });
    return { body, signature: sign(body, secret) };
  };
}
