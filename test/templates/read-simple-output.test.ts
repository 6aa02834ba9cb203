import { describe, expect, it } from 'vitest';
import { createLiquid } from '../../src/templates/create-liquid.js';
import { compileTemplate } from '../../src/templates/compile-template.js';
import { readSimpleOutput } from '../../src/templates/read-simple-output.js';

const CONTEXTS = [
  {
    data: { host: 'db-1', n: 42, f: 1.5, neg: -0, yes: true, no: false, nil: null, list: ['a', 'b'], deep: { x: 'y' } },
  },
  { data: { host: '' } },
  { data: 'a string' },
  { data: null },
  {},
];
const TEMPLATES = [
  '{{ data.host }}',
  '{{data.n}}',
  '{{- data.f -}}',
  '{{ data.neg }}',
  '{{ data.yes }}',
  '{{ data.no }}',
  '{{ data.nil }}',
  '{{ data.missing }}',
  '{{ data.missing.deeper }}',
  '{{ data.list }}',
  '{{ data.deep }}',
  '{{ data.deep.x }}',
  '{{ data.host.length }}',
  '{{ data }}',
  '{{ constructor }}',
  '{{ data.constructor.name }}',
];

describe('readSimpleOutput', () => {
  it('takes only a template that prints one plain variable', () => {
    expect(readSimpleOutput('{{ data.host }}')).toBeTypeOf('function');
    for (const other of [
      '{{ data.host | upcase }}',
      'x{{ data.host }}',
      '{{ data.list.size }}',
      '{{ data["a"] }}',
      ' {{ a }}',
    ]) {
      expect(readSimpleOutput(other), other).toBeUndefined();
    }
  });

  it('prints what Liquid prints, or leaves the value to Liquid', () => {
    const liquid = createLiquid('none');
    for (const source of TEMPLATES) {
      const read = readSimpleOutput(source);
      const template = compileTemplate(source);
      for (const context of CONTEXTS) {
        const expected = liquid.parseAndRenderSync(source, context) as string;
        const quick = read?.(context);
        if (quick !== undefined) expect(quick, `${source} over ${JSON.stringify(context)}`).toBe(expected);
        expect(template.render(context), source).toBe(expected);
      }
    }
  });

  it('is not used where the output is escaped', () => {
    expect(compileTemplate('{{ data.host }}', 'html').render({ data: { host: '<b>' } })).toBe('&lt;b&gt;');
    expect(compileTemplate('{{ data.host }}', 'slack').render({ data: { host: '<!here>' } })).toBe('&lt;!here&gt;');
  });
});
