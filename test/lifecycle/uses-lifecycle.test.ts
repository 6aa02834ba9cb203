import { describe, expect, it } from 'vitest';
import { usesLifecycle } from '../../src/lifecycle/uses-lifecycle.js';
import { makeHttpSpec, makePagerdutySpec, makeSlackSpec } from '../delivery/targets/make-target-spec.js';

describe('usesLifecycle', () => {
  it('is true for HTTP targets with requests and for PagerDuty, which get the default key', () => {
    const create = {
      method: 'POST',
      url: 'https://h.example/x',
      urlTemplate: null,
      body: { kind: 'forward' },
      capture: [],
    } as const;
    expect(usesLifecycle(makeHttpSpec({ requests: { create, update: null, resolve: null } }))).toBe(true);
    expect(usesLifecycle(makePagerdutySpec())).toBe(true);
  });

  it('is true for a Slack Web API target (token), which threads by key', () => {
    expect(usesLifecycle(makeSlackSpec({ webhookUrl: null, token: 'xoxb-1', channel: '#soc' }))).toBe(true);
  });

  it('is false for a plain HTTP target and for a Slack webhook, which are ordered only with a key:', () => {
    expect(usesLifecycle(makeHttpSpec())).toBe(false);
    expect(usesLifecycle(makeHttpSpec({ requests: null }))).toBe(false);
    expect(usesLifecycle(makeSlackSpec())).toBe(false);
  });
});
