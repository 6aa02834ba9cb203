import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The monitoring service's endpoints that Switchyard calls. */
export type MonitoringRoute = 'POST /v1/webhooks' | 'POST /oauth/token' | 'GET /v1/agents';

export interface MonitoringAnswer {
  readonly status: number;
  /** Sent as JSON unless a string. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface MonitoringRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON, or undefined. */
  readonly json: unknown;
}

export interface MonitoringApi {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: MonitoringRequest[];
  /** Answers for the next calls of a route, in order; afterwards the stand-in answers as the real API would. */
  script(route: MonitoringRoute, ...answers: MonitoringAnswer[]): void;
  close(): Promise<void>;
}

/** The credentials the stand-in knows; placeholders. */
export const MONITORING = {
  apiKey: 'test-api-key-0123456789abcdef',
  accessToken: 'test-access-token-abcdef0123456789',
  clientId: 'switchyard-test-client',
  clientSecret: 'test-client-secret-0123456789',
  code: 'test-auth-code-0123456789',
} as const;

/**
 * A real HTTP server on a free loopback port standing in for the monitoring service's API: it records every
 * request and answers like the service (bearer checked against the API key or the access token, the code
 * exchange checked against the client and code), unless answers are scripted for a route.
 */
export async function startMonitoringApi(): Promise<MonitoringApi> {
  const requests: MonitoringRequest[] = [];
  const scripted = new Map<string, MonitoringAnswer[]>();
  let subscriptions = 0;

  const answerFor = (route: string, request: MonitoringRequest): MonitoringAnswer => {
    const queued = scripted.get(route)?.shift();
    if (queued !== undefined) return queued;
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const authorized = bearer === MONITORING.apiKey || bearer === MONITORING.accessToken;
    const unauthorized = { status: 401, body: { error: { code: 'unauthorized', message: 'invalid API key' } } };
    switch (route) {
      case 'POST /v1/webhooks': {
        if (!authorized) return unauthorized;
        const body = request.json as { url?: unknown; events?: unknown; secret?: unknown } | undefined;
        if (typeof body?.url !== 'string' || !Array.isArray(body.events) || typeof body.secret !== 'string') {
          return { status: 422, body: { error: { code: 'invalid', message: 'url, events and secret are required' } } };
        }
        subscriptions += 1;
        return { status: 201, body: { id: `wh_${subscriptions}`, url: body.url, events: body.events } };
      }
      case 'POST /oauth/token': {
        const body = request.json as Record<string, unknown> | undefined;
        if (body?.client_id !== MONITORING.clientId || body.client_secret !== MONITORING.clientSecret) {
          return { status: 401, body: { error: 'invalid_client', error_description: 'unknown client' } };
        }
        if (body.grant_type !== 'authorization_code' || body.code !== MONITORING.code) {
          return { status: 400, body: { error: 'invalid_grant', error_description: 'code expired or already used' } };
        }
        return { status: 200, body: { access_token: MONITORING.accessToken, token_type: 'Bearer', expires_in: 3600 } };
      }
      case 'GET /v1/agents':
        return authorized ? { status: 200, body: { data: [{ id: 'agt_1', hostname: 'db-1' }] } } : unauthorized;
      default:
        return { status: 404, body: { error: { code: 'not_found', message: 'no such endpoint' } } };
    }
  };

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const request = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        text,
        json,
      };
      requests.push(request);
      const answer = answerFor(`${request.method} ${request.path}`, request);
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      const type = typeof answer.body === 'string' ? 'text/plain' : 'application/json';
      response.writeHead(answer.status, { 'content-type': type, ...answer.headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(route, ...answers) {
      scripted.set(route, [...(scripted.get(route) ?? []), ...answers]);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
