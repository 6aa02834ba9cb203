import type { DeliveryJob } from '../../../src/delivery/target.js';
import type { Logger } from '../../../src/log/logger.js';
import type {
  DeliveryPolicy,
  HttpTargetSpec,
  PagerdutyTargetSpec,
  SlackTargetSpec,
  TeamsTargetSpec,
} from '../../../src/rules/rules.js';

export const TEST_POLICY: DeliveryPolicy = {
  retry: { initialDelayMs: 1_000, maxDelayMs: 600_000, maxAttempts: 12, maxAgeMs: 24 * 3_600_000 },
  rateLimit: null,
  concurrency: 4,
  circuit: { failures: 5, cooldownMs: 30_000 },
  timeoutMs: 2_000,
};

export function makeHttpSpec(overrides: Partial<HttpTargetSpec> = {}): HttpTargetSpec {
  return {
    type: 'http',
    name: 'tickets',
    url: 'http://127.0.0.1:9/never',
    method: 'POST',
    headers: {},
    auth: null,
    body: { kind: 'forward' },
    signingSecret: null,
    allowLinkLocal: false,
    policy: TEST_POLICY,
    ...overrides,
  };
}

export function makeSlackSpec(overrides: Partial<SlackTargetSpec> = {}): SlackTargetSpec {
  return {
    type: 'slack',
    name: 'soc-slack',
    webhookUrl: 'http://127.0.0.1:9/services/T000/B000/XXXX',
    token: null,
    baseUrl: 'https://slack.com/api/',
    channel: null,
    username: null,
    iconEmoji: null,
    message: null,
    allowLinkLocal: false,
    policy: TEST_POLICY,
    ...overrides,
  };
}

/** A Workflows webhook URL's shape: the `sig` query is the secret. */
export const TEAMS_HOOK_PATH =
  '/workflows/0a1b2c3d4e5f60718293a4b5c6d7e8f9/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=teams-sig-secret-XyZ';

export function makeTeamsSpec(overrides: Partial<TeamsTargetSpec> = {}): TeamsTargetSpec {
  return {
    type: 'teams',
    name: 'soc-teams',
    webhookUrl: `http://127.0.0.1:9${TEAMS_HOOK_PATH}`,
    message: null,
    allowLinkLocal: false,
    policy: TEST_POLICY,
    ...overrides,
  };
}

/** A routing key of the documented length (32 characters), distinctive enough to search for. */
export const ROUTING_KEY = 'R0UTINGKEY0f9e8d7c6b5a4f3e2d1c0b';

export function makePagerdutySpec(overrides: Partial<PagerdutyTargetSpec> = {}): PagerdutyTargetSpec {
  return {
    type: 'pagerduty',
    name: 'pager',
    routingKey: ROUTING_KEY,
    baseUrl: 'http://127.0.0.1:9',
    severityMap: new Map(),
    correlationKey: null,
    allowLinkLocal: false,
    policy: TEST_POLICY,
    ...overrides,
  };
}

/** One attempt at delivering `envelope`, whose exact bytes are `raw` when given (to test byte-for-byte forwarding). */
export function makeJob(
  envelope: Record<string, unknown> = {
    event: 'incident.created',
    timestamp: '2026-11-22T10:00:00Z',
    data: { incident_id: 'inc_123', severity: 'critical', title: 'Ransomware on host-7' },
  },
  options: { raw?: Buffer; deliveryId?: string; source?: string } = {},
): DeliveryJob {
  const data = (envelope['data'] ?? {}) as Record<string, unknown>;
  return {
    deliveryId: options.deliveryId ?? 'dlv_1',
    idempotencyKey: options.deliveryId ?? 'dlv_1',
    attempt: 1,
    envelope,
    event: {
      id: 'evt_01TEST',
      source: options.source ?? 'monitor',
      kind: String(envelope['event']),
      severity: typeof data['severity'] === 'string' ? data['severity'] : null,
      occurredAt: String(envelope['timestamp']),
      receivedAt: Date.UTC(2026, 10, 22, 10, 0, 1),
      body: options.raw ?? Buffer.from(JSON.stringify(envelope)),
      bodySha256: '',
      rulesVersion: 'test',
      matchedRoutes: [],
    },
  };
}

export const quietLog: Logger = { error() {}, warn() {}, info() {}, debug() {}, addSecrets() {} };
