import { readFileSync } from 'node:fs';
import type { TrustedCa } from '../../rules/rules.js';
import { SwitchyardError } from '../../switchyard-error.js';

/** A target's `ca:` as PEM text, its file read now; undefined = the public roots. Throws when the file cannot be read. */
export function readTrustedCa(ca: TrustedCa | null | undefined): string | undefined {
  if (ca === null || ca === undefined) return undefined;
  if ('pem' in ca) return ca.pem;
  try {
    return readFileSync(ca.file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new SwitchyardError('ca_unreadable', `cannot read the ca file ${ca.file} (${reason})`, { cause: error });
  }
}
