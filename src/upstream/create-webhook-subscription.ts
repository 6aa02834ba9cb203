import { upstreamFailure } from './upstream-failure.js';
import { upstreamRequest } from './upstream-request.js';

export interface WebhookSubscription {
  /** Where the service sends events: Switchyard's public `/webhooks/<source>` URL. */
  readonly url: string;
  readonly events: readonly string[];
  /** The HMAC secret the service signs with. */
  readonly secret: string;
}

/**
 * `POST {base}/v1/webhooks` with `{url, events, secret}`. Resolves with the subscription's id as the service
 * gave it (null when its answer names none); rejects with a `SwitchyardError` for any other answer or none.
 * `credential` names where the bearer came from, for the hint on a 401.
 */
export async function createWebhookSubscription(
  baseUrl: URL,
  bearer: string,
  credential: string,
  subscription: WebhookSubscription,
): Promise<{ readonly id: string | null }> {
  const secrets = [subscription.secret, bearer];
  const answer = await upstreamRequest(baseUrl, {
    method: 'POST',
    path: '/v1/webhooks',
    bearer,
    json: { url: subscription.url, events: subscription.events, secret: subscription.secret },
    secrets,
  });
  if (answer.status < 200 || answer.status > 299) {
    throw upstreamFailure('creating the webhook subscription failed', answer, secrets, {
      401: `check ${credential}`,
      403: `${credential} may not create webhook subscriptions`,
      409: 'a subscription for this URL probably exists already: remove it at the service, or subscribe another URL',
    });
  }
  return { id: readId(answer.text) };
}

function readId(text: string): string | null {
  try {
    const body = JSON.parse(text) as { id?: unknown; data?: { id?: unknown } } | null;
    const id = body?.id ?? body?.data?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  } catch {
    return null;
  }
}
