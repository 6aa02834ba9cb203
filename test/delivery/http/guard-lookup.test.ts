import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAddressGuard } from '../../../src/delivery/http/create-address-guard.js';
import { guardLookup } from '../../../src/delivery/http/guard-lookup.js';

/** A resolver that answers every name with `addresses`, in whichever shape the caller asks for. */
function fakeLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const all: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  };
}

function resolve(lookup: LookupFunction, all: boolean) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
    lookup('tickets.example.com', { all }, (error, address) => done({ error, address })),
  );
}

describe('guardLookup', () => {
  const isRefused = createAddressGuard();

  it.each([false, true])('passes allowed addresses through (all: %s)', async (all) => {
    const { error, address } = await resolve(guardLookup(fakeLookup(['10.0.0.7']), isRefused), all);
    expect(error).toBeNull();
    expect(address).toEqual(all ? [{ address: '10.0.0.7', family: 4 }] : '10.0.0.7');
  });

  it.each([false, true])('refuses a metadata address after resolution (all: %s)', async (all) => {
    const { error } = await resolve(guardLookup(fakeLookup(['169.254.169.254']), isRefused), all);
    expect(error).toMatchObject({ code: 'address_refused' });
    expect(error?.message).toContain('169.254.169.254 (resolved from tickets.example.com)');
  });

  // AWS's IPv6 metadata endpoint, as written and in its uncompressed spelling (a resolver may answer either).
  it.each([
    ['fd00:ec2::254', false],
    ['fd00:ec2::254', true],
    ['fd00:0ec2:0000:0000:0000:0000:0000:0254', false],
  ])('refuses a host name that resolves to AWS IPv6 metadata %s (all: %s)', async (metadata, all) => {
    const { error, address } = await resolve(guardLookup(fakeLookup([metadata]), isRefused), all);
    expect(error).toMatchObject({ code: 'address_refused' });
    expect(error?.message).toContain(`${metadata} (resolved from tickets.example.com)`);
    expect(address).toBe('');
  });

  it('refuses a dual-stack answer whose IPv6 record is the metadata address', async () => {
    const lookup = guardLookup(fakeLookup(['10.0.0.7', 'fd00:ec2::254']), isRefused);
    expect((await resolve(lookup, true)).error).toMatchObject({ code: 'address_refused' });
  });

  it('refuses the whole answer when any address is refused (a rebinding sign)', async () => {
    const lookup = guardLookup(fakeLookup(['10.0.0.7', '::ffff:169.254.169.254']), isRefused);
    expect((await resolve(lookup, true)).error).toMatchObject({ code: 'address_refused' });
  });

  it('passes resolver errors through unchanged', async () => {
    const failing: LookupFunction = (_hostname, _options, callback) =>
      callback(Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' }), '', 0);
    expect((await resolve(guardLookup(failing, isRefused), false)).error).toMatchObject({ code: 'EAI_AGAIN' });
  });
});
