import { describe, expect, it } from 'vitest';
import { expandEnvRefs } from '../../src/rules/env/expand-env-refs.js';

describe('expandEnvRefs', () => {
  const env = { TOKEN: 's3cret-token', HOST: 'tickets.example', EMPTY: '' };

  it('replaces each ${NAME} and records names and values', () => {
    expect(expandEnvRefs('https://${HOST}/api?t=${TOKEN}', env)).toEqual({
      ok: true,
      value: 'https://tickets.example/api?t=s3cret-token',
      names: ['HOST', 'TOKEN'],
      missing: [],
      substituted: ['tickets.example', 's3cret-token'],
    });
  });

  it('leaves other dollars alone and turns $${ into a literal ${', () => {
    expect(expandEnvRefs('cost $5 and $${HOST} and $', env)).toMatchObject({
      value: 'cost $5 and ${HOST} and $',
      names: [],
    });
  });

  it('keeps a missing or empty variable as written and reports it', () => {
    expect(expandEnvRefs('${NOPE}-${EMPTY}', env)).toMatchObject({
      ok: true,
      value: '${NOPE}-${EMPTY}',
      missing: ['NOPE', 'EMPTY'],
      substituted: [],
    });
  });

  it('rejects malformed references', () => {
    expect(expandEnvRefs('${HOST', env)).toEqual({ ok: false, reason: '"${" without a closing "}"' });
    expect(expandEnvRefs('${1ABC}', env)).toMatchObject({ ok: false });
    expect(expandEnvRefs('${}', env)).toMatchObject({ ok: false });
  });

  it('does not expand references inside values', () => {
    expect(expandEnvRefs('${A}', { A: '${TOKEN}', TOKEN: 'x' })).toMatchObject({ value: '${TOKEN}' });
  });
});
