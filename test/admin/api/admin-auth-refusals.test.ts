import { afterEach, describe, expect, it } from 'vitest';
import { AUTH_FAILURES_METRIC } from '../../../src/admin/api/create-admin-auth.js';
import type { AuthThrottleOptions } from '../../../src/admin/auth-throttle.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER, REPLAYER } from './test-keys.js';
import { seedJournal } from './seed-journal.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
const THROTTLE: AuthThrottleOptions = {
  freeFailures: 3,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  forgetAfterMs: 600_000,
  maxAddresses: 100,
};
const WRONG = `${READER.key.slice(0, -1)}${READER.key.endsWith('A') ? 'B' : 'A'}`;
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const lines = (harness: AdminApiHarness) =>
  harness
    .logs()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('admin API: repeated wrong keys', () => {
  it('answers 429 with Retry-After once an address used its free failures, even to the right key', async () => {
    api = await startAdminApi({ rules, throttle: THROTTLE });
    for (let i = 0; i < 3; i += 1) expect((await api.request('/api/v1/events', { key: WRONG })).status).toBe(401);
    for (const key of [WRONG, READER.key]) {
      const answer = await api.request('/api/v1/events', { key });
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.body).toEqual({
        error: { code: 'too_many_failures', message: 'too many wrong credentials from this address: try again in 2 s' },
      });
    }
    // Only the three keys before the wait were checked; the answers during it are counted apart.
    expect(await api.metrics.value(AUTH_FAILURES_METRIC, { reason: 'invalid' })).toBe(3);
    expect(await api.metrics.value(AUTH_FAILURES_METRIC, { reason: 'throttled' })).toBe(2);
  });

  it('checks the next key once the wait is over; a right key in between does not clear the count', async () => {
    api = await startAdminApi({ rules, throttle: THROTTLE });
    for (let i = 0; i < 3; i += 1) await api.request('/api/v1/events', { key: WRONG });
    api.clock.advance(2_000);
    expect((await api.request('/api/v1/events', { key: WRONG })).status).toBe(401);
    expect((await api.request('/api/v1/events', { key: READER.key })).headers.get('retry-after')).toBe('4');
    api.clock.advance(4_000);
    expect((await api.request('/api/v1/events', { key: READER.key })).status).toBe(200);
    // Not forgotten: a key holder cannot interleave good requests to keep guessing at full speed.
    expect((await api.request('/api/v1/events', { key: WRONG })).status).toBe(401);
    expect((await api.request('/api/v1/events', { key: READER.key })).headers.get('retry-after')).toBe('8');
    // Failures expire forgetAfterMs after the last one.
    api.clock.advance(THROTTLE.forgetAfterMs + 8_000);
    for (let i = 0; i < 3; i += 1) expect((await api.request('/api/v1/events', { key: WRONG })).status).toBe(401);
  });

  it('re-queues nothing for a replay sent with the right key while its address waits', async () => {
    api = await startAdminApi({ rules, throttle: THROTTLE });
    const seed = await seedJournal(api.store);
    const dead = seed.delivery(0, 'soc-slack');
    const before = await api.store.getDelivery(dead);
    for (let i = 0; i < 3; i += 1) await api.request('/api/v1/events', { key: WRONG });
    for (const path of [`/api/v1/deliveries/${dead}/replay`, '/api/v1/replay']) {
      const answer = await api.request(path, { key: REPLAYER.key, method: 'POST', body: { target: 'soc-slack' } });
      expect(answer.status).toBe(429);
    }
    expect(await api.store.getDelivery(dead)).toEqual(before);
    expect(before?.state).toBe('dead');
  });

  it('does not count requests without a key or with a key lacking the scope toward the wait', async () => {
    api = await startAdminApi({ rules, throttle: THROTTLE });
    for (let i = 0; i < 5; i += 1) {
      expect((await api.request('/api/v1/events')).status).toBe(401);
      expect((await api.request('/api/v1/replay', { key: READER.key, body: { target: 'tickets' } })).status).toBe(403);
    }
    expect((await api.request('/api/v1/events', { key: READER.key })).status).toBe(200);
  });

  it('logs one refusal per address per window, then how many it left out when the window closes', async () => {
    api = await startAdminApi({ rules, logLimit: { intervalMs: 300, maxLines: 5 } });
    for (let i = 0; i < 4; i += 1) await api.request('/api/v1/events', { key: WRONG });
    await api.request('/api/v1/events');
    expect(lines(api).filter((line) => line.message === 'admin API request refused')).toHaveLength(1);
    expect(await api.metrics.value(AUTH_FAILURES_METRIC, { reason: 'invalid' })).toBe(4);
    expect(await api.metrics.value(AUTH_FAILURES_METRIC, { reason: 'missing' })).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lines(api).filter((line) => line.message === 'admin refusals not logged')).toEqual([
      expect.objectContaining({ level: 'warn', count: 4, window_ms: 300 }),
    ]);
    // A new window: the next refusal is logged again.
    await api.request('/api/v1/events', { key: WRONG });
    expect(lines(api).filter((line) => line.message === 'admin API request refused')).toHaveLength(2);
    expect(api.logs()).not.toContain(WRONG.slice(3, 20));
  });
});
