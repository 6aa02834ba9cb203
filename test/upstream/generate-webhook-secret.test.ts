import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/upstream/generate-webhook-secret.js';

describe('generateWebhookSecret', () => {
  it('is 32 random bytes as 64 hex digits, different every time', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateWebhookSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });
});
