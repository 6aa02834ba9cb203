import { createServer } from 'node:http';
import { closeHttpServer } from './close-http-server.js';
import { listenOnLoopback } from './listen-on-loopback.js';
import { readRequestBody } from './read-request-body.js';

export interface SlackMessage {
  /** The last path segment of the webhook URL it was posted to (`soc`, `infra`). */
  readonly webhook: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

export interface SlackStandIn {
  /** The incoming-webhook URL for a named channel of the stand-in. */
  webhookUrl(name: string): string;
  /** Every accepted message, in arrival order. */
  readonly messages: SlackMessage[];
  close(): Promise<void>;
}

/**
 * A local Slack incoming webhook: any `POST /services/...` with a JSON message is answered `200 ok` (text, as
 * Slack does), one without text, blocks or attachments `400 no_text`, one that is not JSON `400 invalid_payload`.
 * https://api.slack.com/messaging/webhooks#handling_errors
 */
export async function startSlackStandIn(): Promise<SlackStandIn> {
  const messages: SlackMessage[] = [];
  const server = createServer((request, response) => {
    void readRequestBody(request).then((body) => {
      const answer = (status: number, text: string): void => {
        response.writeHead(status, { 'content-type': 'text/html' });
        response.end(text);
      };
      let payload: unknown;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch {
        return answer(400, 'invalid_payload');
      }
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
        return answer(400, 'invalid_payload');
      }
      const message = payload as Record<string, unknown>;
      if (message.text === undefined && message.blocks === undefined && message.attachments === undefined) {
        return answer(400, 'no_text');
      }
      messages.push({ webhook: (request.url ?? '').split('/').pop() ?? '', payload: message });
      answer(200, 'ok');
    });
  });
  const port = await listenOnLoopback(server);
  return {
    webhookUrl: (name) => `http://127.0.0.1:${port}/services/TDEMO/BDEMO/${name}`,
    messages,
    close: () => closeHttpServer(server),
  };
}
