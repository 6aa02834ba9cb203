import { describe, expect, it } from 'vitest';
import { createSecretMask } from '../../src/secrets/secret-mask.js';
import { secretForms } from '../../src/secrets/secret-forms.js';

const PASS = 'pa ss/wörd+1!';
const PAIR = `switchyard:${PASS}`;

describe('createSecretMask', () => {
  it('masks a secret in every form it travels in', () => {
    const mask = createSecretMask([PASS, PAIR]);
    const base64 = Buffer.from(PAIR).toString('base64');
    const echoes = [
      PASS,
      `Authorization: Basic ${base64}`,
      Buffer.from(PAIR).toString('base64url'),
      Buffer.from(PASS).toString('base64'),
      encodeURIComponent(PASS),
      new URLSearchParams({ p: PASS }).toString().slice(2),
      encodeURIComponent(PASS).replaceAll('%20', '+'),
      JSON.stringify({ p: PASS }),
      JSON.stringify(PASS).replaceAll('/', '\\/'),
    ];
    for (const echo of echoes) {
      const masked = mask.mask(`echo ${echo} end`);
      expect(masked, echo).toContain('[redacted]');
      expect(masked, echo).not.toMatch(/pa ss|pa%20ss|pa\+ss|c3dpdGNoeWFyZD|cGEgc3Mv/);
    }
    expect(mask.mask(`Basic ${base64}`)).toMatch(/^Basic \[redacted\]=*$/);
  });

  it('masks a longer secret whole when it contains a shorter one, and leaves ordinary words alone', () => {
    const mask = createSecretMask(['abcd1234', 'abcd1234XYZ', 'ab']);
    expect(mask.mask('token abcd1234XYZ and abcd1234, ab')).toBe('token [redacted] and [redacted], ab');
  });

  it('finds the start of a secret a cut left at the end, from 4 characters on', () => {
    const mask = createSecretMask(['BEARER-zz9plm30vb72kq']);
    expect(mask.trailingPartial('said BEARER-zz9pl')).toBe('BEARER-zz9pl'.length);
    expect(mask.trailingPartial('said BEAR')).toBe(4);
    expect(mask.trailingPartial('said BEA')).toBe(0);
    expect(mask.trailingPartial('said BEARER-zz9plm30vb72kq')).toBe(0); // whole: mask() handles it
    // In a base64 form too (a Basic credential cut).
    const encoded = Buffer.from('BEARER-zz9plm30vb72kq').toString('base64');
    expect(mask.trailingPartial(`Basic ${encoded.slice(0, 9)}`)).toBe(9);
  });

  it('masks what one regular expression of every form, longest first, would, and finds every start at a cut (random texts)', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 48_271) % 2_147_483_647; // MINSTD: deterministic, exact in doubles
      return seed % n;
    };
    const word = (length: number) => Array.from({ length }, () => 'abAB01+/=:%"\\é'[random(14)]).join('');
    const secrets = Array.from({ length: 40 }, (_, i) => word(4 + (i % 12)));
    const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
    const reference = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    const mask = createSecretMask(secrets);
    for (let round = 0; round < 500; round++) {
      const pieces = Array.from({ length: 6 }, () => (random(2) === 0 ? word(random(9)) : forms[random(forms.length)]));
      const text = pieces.join('');
      expect(mask.mask(text), text).toBe(text.replace(reference, '[redacted]'));
      // And the longest start of a form left at the end, as a plain search over every form finds it.
      const cut = text.slice(0, random(text.length + 1));
      const starts = forms.flatMap((form) =>
        Array.from({ length: form.length - 4 }, (_, k) => form.slice(0, k + 4)).filter((start) => cut.endsWith(start)),
      );
      expect(mask.trailingPartial(cut), cut).toBe(Math.max(0, ...starts.map((start) => start.length)));
    }
  });
});
