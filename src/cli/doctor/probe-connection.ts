import { lookup as dnsLookup } from 'node:dns';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { addressRefused } from '../../delivery/http/address-refused.js';
import { createAddressGuard } from '../../delivery/http/create-address-guard.js';
import { guardLookup } from '../../delivery/http/guard-lookup.js';

export interface ProbeOptions {
  readonly allowLinkLocal: boolean;
  readonly timeoutMs: number;
  readonly lookup?: LookupFunction | undefined;
  /** PEM certificates trusted instead of the public roots (an `http` target's `ca:`). */
  readonly ca?: string | undefined;
}

/**
 * Reaches an HTTP(S) endpoint without sending a request: a TCP connection through the same link-local /
 * metadata guard the targets use, and for https a TLS handshake that verifies the certificate for the host
 * name; then the connection is closed. No request at all, not even HEAD or OPTIONS: a Slack webhook or a
 * ticketing API may act on any request, and the connection already proves DNS, routing, firewall and TLS.
 * Resolves with what was established; rejects with the socket, DNS, TLS or guard error.
 */
export function probeConnection(url: URL, options: ProbeOptions): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const isRefused = options.allowLinkLocal ? () => false : createAddressGuard();
  // net.connect does not call lookup for an IP literal, so the guard looks at those itself.
  if (isIP(host) !== 0 && isRefused(host)) return Promise.reject(addressRefused(host));
  const lookup = guardLookup(options.lookup ?? (dnsLookup as LookupFunction), isRefused);

  return new Promise((resolve, reject) => {
    const sockets: Socket[] = [];
    const finish = (error: unknown, established?: string): void => {
      clearTimeout(timer);
      // The TLS socket before the TCP one under it: the other order made Node 20 crash (SIGSEGV) on exit after
      // a handshake that succeeded.
      for (const socket of [...sockets].reverse()) socket.destroy();
      if (established === undefined) reject(error);
      else resolve(established);
    };
    const timer = setTimeout(() => {
      const message = `no connection within ${options.timeoutMs} ms`;
      finish(Object.assign(new Error(message), { code: 'ETIMEDOUT' }));
    }, options.timeoutMs);
    const tcp = connect({ host, port, lookup });
    sockets.push(tcp);
    tcp.once('error', finish);
    tcp.once('connect', () => {
      const address = `${tcp.remoteAddress ?? host}:${port}`;
      if (!secure) return finish(null, `TCP connection to ${address}`);
      // SNI for host names only (RFC 6066 §3); the certificate is checked against the host either way.
      const servername = isIP(host) === 0 ? { servername: host } : {};
      const tls = tlsConnect({
        socket: tcp,
        host,
        ...servername,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      });
      sockets.push(tls);
      tls.once('error', finish);
      tls.once('secureConnect', () => finish(null, `TLS connection to ${address}, certificate valid for ${host}`));
    });
  });
}
