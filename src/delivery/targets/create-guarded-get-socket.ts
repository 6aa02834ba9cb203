import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import type { SMTPTransportGetSocket } from 'nodemailer/lib/smtp-transport';
import { addressRefused } from '../http/address-refused.js';
import { createAddressGuard } from '../http/create-address-guard.js';
import { guardLookup } from '../http/guard-lookup.js';

export interface GuardedSocketSettings {
  readonly lookup: LookupFunction;
  readonly allowLinkLocal: boolean;
  /** Bound on resolving and connecting, like nodemailer's own `connectionTimeout`. */
  readonly timeoutMs: number;
}

/**
 * nodemailer's `getSocket` hook (meant for proxies), used so that we resolve the SMTP host ourselves
 * (`deps.lookup`) and refuse link-local and metadata addresses after resolution, as the HTTP target does:
 * nodemailer's own resolver takes neither a lookup nor a filter. nodemailer then speaks SMTP over the socket
 * and upgrades it (`secure`, STARTTLS) with the configured host *name* as TLS server name, since `host` is
 * left as configured. Called once per pooled connection, so each connection is checked.
 */
export function createGuardedGetSocket(settings: GuardedSocketSettings): SMTPTransportGetSocket {
  const isRefused = settings.allowLinkLocal ? () => false : createAddressGuard();
  const lookup = guardLookup(settings.lookup, isRefused);
  return (options, callback) => {
    const host = typeof options.host === 'string' && options.host !== '' ? options.host : 'localhost';
    const port = Number(options.port) || (options.secure === true ? 465 : 587);
    // net.connect does not look up an IP literal, so the lookup guard would never see it.
    if (isIP(host) !== 0 && isRefused(host)) {
      setImmediate(() => callback(addressRefused(host)));
      return;
    }
    const socket: Socket = connect({ host, port, lookup, noDelay: true });
    const finish = (error: Error | null): void => {
      clearTimeout(timer);
      socket.removeListener('error', finish);
      socket.removeListener('connect', onConnect);
      if (error === null) return callback(null, { connection: socket });
      socket.destroy();
      callback(error);
    };
    const onConnect = (): void => finish(null);
    const timer = setTimeout(() => {
      const message = `connecting to ${host}:${port} timed out after ${settings.timeoutMs} ms`;
      finish(Object.assign(new Error(message), { code: 'ETIMEDOUT' }));
    }, settings.timeoutMs);
    socket.once('connect', onConnect);
    socket.once('error', finish);
  };
}
