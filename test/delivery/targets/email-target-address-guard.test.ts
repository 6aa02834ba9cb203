import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeEmailJob } from './make-email-job.js';
import { makeEmailSpec, makeSmtp } from './make-email-spec.js';
import { never, useEmailTargets } from './use-email-targets.js';

const use = useEmailTargets();
const hostSettings = (host: string) => makeSmtp(25, { host });
const resolvingTo =
  (address: string, family: 4 | 6): LookupFunction =>
  (_host, _options, callback) =>
    callback(null, [{ address, family }]);

describe('e-mail target: link-local and cloud-metadata addresses', () => {
  it.each([
    ['an IPv4 metadata literal', hostSettings('169.254.169.254'), resolvingTo('127.0.0.1', 4)],
    ['an IPv4-mapped IPv6 literal', hostSettings('::ffff:169.254.169.254'), resolvingTo('127.0.0.1', 4)],
    ['a name resolving to 169.254.169.254', hostSettings('metadata.test'), resolvingTo('169.254.169.254', 4)],
    ['a name resolving to fd00:ec2::254', hostSettings('metadata6.test'), resolvingTo('fd00:ec2::254', 6)],
    ['a name resolving to IPv6 link-local', hostSettings('ll.test'), resolvingTo('fe80::1', 6)],
  ])('refuses %s, permanently', async (_name, smtp, lookup) => {
    const outcome = await use.target(makeEmailSpec(25, { smtp }), { lookup }).send(makeEmailJob(), never());

    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('allow_link_local') });
  });

  it('connects there with allow_link_local: true (the connection itself then fails, and is retried)', async () => {
    const spec = makeEmailSpec(25, {
      smtp: hostSettings('metadata.test'),
      allowLinkLocal: true,
      policy: { timeoutMs: 300 },
    });

    // A link-local address on the loopback interface: the attempt fails locally and never leaves this machine
    // (this sandbox's 169.254.0.0/16 answers, so a real link-local IPv4 address would reach something).
    const outcome = await use.target(spec, { lookup: resolvingTo('fe80::1%lo', 6) }).send(makeEmailJob(), never());

    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' && outcome.error).not.toContain('allow_link_local');
  });
});
