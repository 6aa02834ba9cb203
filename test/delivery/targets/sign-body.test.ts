import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/delivery/targets/sign-body.js';
import { signatureVectors, VECTOR_SECRET } from '../../helpers/signature-vectors.js';

describe('signBody', () => {
  // The vectors were computed by openssl for ingest: what we send verifies the way we verify.
  it.each(signatureVectors().map((vector) => [vector.name, vector] as const))(
    'matches openssl for %s',
    (_name, vector) => {
      expect(signBody(vector.body, VECTOR_SECRET)).toBe(vector.header);
    },
  );
});
