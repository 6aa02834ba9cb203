import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRefused } from './address-refused.js';
import type { AddressGuard } from './create-address-guard.js';

/**
 * Wraps a DNS lookup so the refused addresses are checked AFTER resolution, on the very addresses the socket
 * will use (a check on the host name before connecting could be beaten by DNS rebinding). Node calls lookup
 * with `all: true` when it races IPv4/IPv6 (autoSelectFamily), so both callback shapes are handled; any refused
 * address fails the whole lookup, since a legitimate host does not mix metadata addresses into its records.
 */
export function guardLookup(lookup: LookupFunction, isRefused: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    let synchronous = true;
    lookup(hostname, options, (error, address, family) => {
      const answer = (): void => {
        if (error) return callback(error, address, family);
        const addresses: readonly (string | LookupAddress)[] = Array.isArray(address) ? address : [address];
        for (const entry of addresses) {
          const ip = typeof entry === 'string' ? entry : entry.address;
          if (isRefused(ip)) return callback(addressRefused(ip, hostname) as NodeJS.ErrnoException, '', 0);
        }
        callback(null, address, family);
      };
      // Node expects lookup to answer asynchronously, as dns.lookup does: a connect error raised inside a
      // synchronous answer (an injected resolver) is emitted before the HTTP request listens for it.
      if (synchronous) setImmediate(answer);
      else answer();
    });
    synchronous = false;
  };
}
