import { describe, expect, it } from 'vitest';
import { redactDetail } from '../../src/delivery/redact-detail.js';

const TOKEN = 'BEARER-zz9plm30vb72kq';

/** Every piece of `secret` of more than `chars` characters, to look for in a text. */
function piecesLongerThan(secret: string, chars: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < secret.length; start++) {
    pieces.push(secret.slice(start, start + chars + 1));
  }
  return pieces.filter((piece) => piece.length > chars);
}

describe('redactDetail', () => {
  it('masks first and cuts after: a secret across the cut, at any offset, leaves at most 3 characters', () => {
    for (let offset = 270; offset < 300; offset++) {
      const text = `HTTP 500: ${'x'.repeat(offset - 10)}${TOKEN}${' trailing words'.repeat(5)}`;
      const detail = redactDetail(text, [TOKEN]);
      expect(detail.length, `offset ${offset}`).toBeLessThanOrEqual(300);
      expect(detail.endsWith('…'), `offset ${offset}`).toBe(true);
      for (const piece of piecesLongerThan(TOKEN, 3)) expect(detail, `offset ${offset}`).not.toContain(piece);
    }
  });

  it('masks the start of a secret left where the text was cut before (ending with …)', () => {
    const text = `HTTP 500: said ${TOKEN.slice(0, 12)}…`;
    expect(redactDetail(text, [TOKEN])).toBe('HTTP 500: said [redacted]…');
    // Not a cut text: the same ending is ordinary text.
    expect(redactDetail(`HTTP 500: said ${TOKEN.slice(0, 12)}`, [TOKEN])).toBe(`HTTP 500: said ${TOKEN.slice(0, 12)}`);
  });

  it('masks a Basic credential echoed in base64, and never cuts a marker in two', () => {
    const pair = 'switchyard:basic-pass-5678';
    const basic = Buffer.from(pair).toString('base64');
    expect(redactDetail(`401: got Basic ${basic}`, [pair])).toBe('401: got Basic [redacted]');
    const detail = redactDetail(`${'y'.repeat(295)}${TOKEN} more`, [TOKEN]);
    expect(detail).toBe(`${'y'.repeat(295)}…`); // not `[red…`
  });

  it('keeps ordinary text whole and bounded', () => {
    expect(redactDetail('x'.repeat(1_000), [])).toBe(`${'x'.repeat(299)}…`);
    expect(redactDetail('HTTP 404: /api/v2/tickets not found', [TOKEN])).toBe('HTTP 404: /api/v2/tickets not found');
  });
});
