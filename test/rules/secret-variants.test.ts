import { describe, expect, it } from 'vitest';
import { secretVariants } from '../../src/rules/env/secret-variants.js';

describe('secretVariants', () => {
  it('adds the parts of a URL that can travel alone, and nothing short or plain', () => {
    expect(secretVariants('smtp://alice:p%40ssw0rd-long@mail.example:587')).toEqual([
      'smtp://alice:p%40ssw0rd-long@mail.example:587',
      'p%40ssw0rd-long',
      'p@ssw0rd-long',
    ]);
    expect(secretVariants('https://api.example/v1/incidents?key=QUERYKEY-55mm&x=1')).toEqual([
      'https://api.example/v1/incidents?key=QUERYKEY-55mm&x=1',
      '/v1/incidents?key=QUERYKEY-55mm&x=1',
      '/v1/incidents',
      'v1/incidents',
      'QUERYKEY-55mm',
    ]);
    expect(secretVariants('https://hooks.slack.com/services/T0AAAAAA1/B0BBBBBB2/abcdefghijklmnopqrstuvwx')).toContain(
      'T0AAAAAA1',
    );
    expect(secretVariants('just-a-token-value')).toEqual(['just-a-token-value']);
  });
});
