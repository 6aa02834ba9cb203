import { describe, expect, it } from 'vitest';
import { secretVariants } from '../../src/rules/env/secret-variants.js';

describe('secretVariants', () => {
  it('adds the password, alone and with the user as Basic auth and AUTH PLAIN carry it, but not the user', () => {
    expect(secretVariants('smtp://switchyard:p%40ssw0rd-long@mail.example:587')).toEqual([
      'smtp://switchyard:p%40ssw0rd-long@mail.example:587',
      'p%40ssw0rd-long',
      'p@ssw0rd-long',
      'switchyard:p@ssw0rd-long',
      '\u0000switchyard\u0000p@ssw0rd-long',
    ]);
    expect(secretVariants('smtp://switchyard@mail.example:25')).toEqual(['smtp://switchyard@mail.example:25']);
  });

  it('adds query values, and leaves an ordinary path alone even when a segment has a digit', () => {
    expect(secretVariants('https://api.example/v1/incidents?key=QUERYKEY-55mm&x=1')).toEqual([
      'https://api.example/v1/incidents?key=QUERYKEY-55mm&x=1',
      'QUERYKEY-55mm',
      '/v1/incidents?key=QUERYKEY-55mm&x=1',
    ]);
    expect(secretVariants('https://tickets.example/api/v2/tickets/2024')).toEqual([
      'https://tickets.example/api/v2/tickets/2024',
    ]);
  });

  it("masks a Slack webhook's path whole and by segment, and a token-long segment on any host", () => {
    const slack = 'https://hooks.slack.com/services/T0AAAAAA1/B0BBBBBB2/abcdefghijklmnopqrstuvwx';
    expect(secretVariants(slack)).toEqual([
      slack,
      'T0AAAAAA1/B0BBBBBB2/abcdefghijklmnopqrstuvwx',
      'T0AAAAAA1',
      'B0BBBBBB2',
      'abcdefghijklmnopqrstuvwx',
      '/services/T0AAAAAA1/B0BBBBBB2/abcdefghijklmnopqrstuvwx',
      'services/T0AAAAAA1/B0BBBBBB2/abcdefghijklmnopqrstuvwx',
    ]);
    expect(secretVariants('https://chat.example/api/webhooks/1234/Zx9-token-long-enough-to-be-one')).toEqual([
      'https://chat.example/api/webhooks/1234/Zx9-token-long-enough-to-be-one',
      'Zx9-token-long-enough-to-be-one',
      '/api/webhooks/1234/Zx9-token-long-enough-to-be-one',
      'api/webhooks/1234/Zx9-token-long-enough-to-be-one',
    ]);
    expect(secretVariants('just-a-token-value')).toEqual(['just-a-token-value']);
  });

  it("masks a Teams workflow URL's sig and workflow id, not the words every workflow URL shares", () => {
    const path = '/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke';
    const query = '?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=Sig0-secret_AbCdEfGhIjKlMn';
    const url = `https://prod-12.westeurope.logic.azure.com:443${path}${query}`;
    const variants = secretVariants(url);
    expect(variants).toEqual([
      url,
      'Sig0-secret_AbCdEfGhIjKlMn',
      '0123456789abcdef0123456789abcdef',
      path,
      path.slice(1),
      `${path}${query}`,
    ]);
    // "triggers" (8 letters) would have been masked in every log line; the API version and permission too.
    for (const word of ['triggers', '2016-06-01', '/triggers/manual/run']) expect(variants).not.toContain(word);
  });
});
