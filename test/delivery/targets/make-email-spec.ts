import type { DeliveryPolicy, EmailTargetSpec, SmtpSettings } from '../../../src/rules/rules.js';

const POLICY: DeliveryPolicy = {
  retry: { initialDelayMs: 1000, maxDelayMs: 600_000, maxAttempts: 12, maxAgeMs: 86_400_000 },
  rateLimit: null,
  concurrency: 2,
  circuit: { failures: 5, cooldownMs: 30_000 },
  timeoutMs: 3000,
};

/** SMTP settings as the rules compiler makes them: plain SMTP to 127.0.0.1 without login unless overridden. */
export function makeSmtp(port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings {
  return {
    host: '127.0.0.1',
    port,
    secure: false,
    requireTls: false,
    allowInsecureAuth: false,
    auth: null,
    name: null,
    ca: null,
    ...overrides,
  };
}

/** An `email` target spec as the rules compiler would produce it, for a local test server. */
export function makeEmailSpec(
  port: number,
  overrides: Partial<Omit<EmailTargetSpec, 'policy'>> & { policy?: Partial<DeliveryPolicy> } = {},
): EmailTargetSpec {
  const { policy, ...rest } = overrides;
  return {
    type: 'email',
    name: 'oncall-mail',
    allowLinkLocal: false,
    smtp: makeSmtp(port),
    onPartialRefusal: 'retry_refused',
    from: 'Switchyard <switchyard@example.com>',
    to: ['soc-oncall@example.com'],
    cc: [],
    subject: null,
    text: null,
    html: null,
    ...rest,
    policy: { ...POLICY, ...policy },
  };
}
