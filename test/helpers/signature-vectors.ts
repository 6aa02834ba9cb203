import { readFileSync } from 'node:fs';

const DIR = new URL('../fixtures/signatures/', import.meta.url);

/** The placeholder secret the vectors in test/fixtures/signatures were computed with (by openssl). */
export const VECTOR_SECRET = 'test-secret-0123456789abcdef';

export interface SignatureVector {
  readonly name: string;
  readonly body: Buffer;
  readonly header: string;
}

/** Bodies and their signature headers as openssl computed them (see make-vectors.sh): not our own HMAC code. */
export function signatureVectors(): SignatureVector[] {
  return readFileSync(new URL('vectors.txt', DIR), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [name, header] = line.split(' ') as [string, string];
      return { name, header, body: readFileSync(new URL(name, DIR)) };
    });
}

export function vector(name: string): SignatureVector {
  const found = signatureVectors().find((v) => v.name === name);
  if (!found) throw new Error(`no vector ${name}`);
  return found;
}
