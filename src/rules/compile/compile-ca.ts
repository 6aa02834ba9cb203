import { X509Certificate } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { TrustedCa } from '../rules.js';
import type { PathSegment } from '../source/locate-path.js';
import type { TargetContext } from './target-context.js';

/**
 * `ca:` PEM text (normally `"${RELAY_CA_PEM}"`) or an absolute path to a PEM file. PEM text is checked here,
 * so `check` finds a broken certificate; a file is read when the target is set up (a candidate rules text
 * must not make the daemon read its disk), and `doctor` reports a file it cannot read.
 */
export function compileCa(value: unknown, target: TargetContext, ...path: PathSegment[]): TrustedCa | null {
  if (typeof value !== 'string' || target.isBroken(...path) || value.includes('${')) return null;
  if (value.trimStart().startsWith('-----BEGIN')) {
    try {
      new X509Certificate(value);
    } catch {
      target.error('bad_ca', 'is not a PEM certificate that can be read', path);
    }
    return { pem: value };
  }
  if (!isAbsolute(value)) {
    target.error('bad_ca', 'must be PEM text (-----BEGIN CERTIFICATE-----) or an absolute path to a PEM file', path);
  }
  return { file: value };
}
