import { SwitchyardError } from '../../switchyard-error.js';

/** The refusal, with what the operator needs to decide (never the URL, whose query may hold a secret). */
export function addressRefused(address: string, hostname?: string): SwitchyardError {
  const from = hostname === undefined || hostname === address ? '' : ` (resolved from ${hostname})`;
  return new SwitchyardError(
    'address_refused',
    `refused to connect to ${address}${from}: link-local or cloud-metadata address; ` +
      'set allow_link_local: true on the target if this is intended',
  );
}
