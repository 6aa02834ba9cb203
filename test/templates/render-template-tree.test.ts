import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { compileTemplateTree } from '../../src/templates/compile-template-tree.js';
import { renderTemplateTree } from '../../src/templates/render-template-tree.js';

const body = {
  summary: '[{{ data.severity | upcase }}] {{ data.title }}',
  description: '{{ data.description }}',
  labels: ['switchyard', '{{ event }}'],
  priority: 3,
  urgent: true,
  parent: null,
  fields: { incident: '{{ data.incident_id }}', nested: [{ deep: '{{ data.title }}' }] },
};

/** What a target does with a rendered tree: JSON text on the wire, parsed by the receiver. */
function roundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('template trees', () => {
  it('renders string leaves and keeps the structure and other values', () => {
    const rendered = renderTemplateTree(compileTemplateTree(body), {
      event: 'incident.created',
      data: { severity: 'high', title: 'Disk full', description: 'on db-1', incident_id: 'INC-7' },
    });
    expect(rendered).toEqual({
      summary: '[HIGH] Disk full',
      description: 'on db-1',
      labels: ['switchyard', 'incident.created'],
      priority: 3,
      urgent: true,
      parent: null,
      fields: { incident: 'INC-7', nested: [{ deep: 'Disk full' }] },
    });
  });

  it.each([
    ['quotes and backslashes', `he said "stop" \\ '", "injected": "yes`],
    ['newlines and control characters', 'line 1\nline 2\r\n\t\u0000\u001b[31m\u2028'],
    ['Liquid syntax', '{{ data.description }}{% raw %}{% endraw %}{%- if true -%}'],
    ['JSON structure', '"},{"summary":"pwned","x":["'],
    ['a 100 KB string', `"${'a"\n<'.repeat(25_000)}`],
  ])('keeps %s in event fields as exact strings in well-formed JSON', (_, hostile) => {
    const rendered = renderTemplateTree(compileTemplateTree(body), {
      event: hostile,
      data: { severity: hostile, title: hostile, description: hostile, incident_id: hostile },
    });
    const received = roundTrip(rendered) as typeof body;
    expect(Object.keys(received)).toEqual(Object.keys(body));
    expect(received.description).toBe(hostile);
    expect(received.labels).toEqual(['switchyard', hostile]);
    expect(received.fields).toEqual({ incident: hostile, nested: [{ deep: hostile }] });
    expect(received.summary).toBe(`[${hostile.toUpperCase()}] ${hostile}`);
  });

  it('keeps __proto__ and constructor keys as plain keys', () => {
    const yamlLike = JSON.parse(
      '{"__proto__": {"polluted": "{{ data.x }}"}, "constructor": "{{ data.x }}"}',
    ) as unknown;
    const rendered = renderTemplateTree(compileTemplateTree(yamlLike), { data: { x: 'v' } }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.keys(rendered)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(rendered)).toBe('{"__proto__":{"polluted":"v"},"constructor":"v"}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('compiles with the given escape', () => {
    const tree = compileTemplateTree({ text: '<!here> {{ data.title }}' }, 'slack');
    expect(renderTemplateTree(tree, { data: { title: '<!channel>' } })).toEqual({ text: '<!here> &lt;!channel&gt;' });
  });

  it('reports a syntax error in any leaf', () => {
    expect(() => compileTemplateTree({ a: ['ok', { b: '{{ x | nope }}' }] })).toThrow(
      expect.objectContaining({
        code: 'template_syntax',
        message: 'undefined filter: nope (template line 1, column 1)',
      }),
    );
  });

  it('throws template_render when a leaf fails', () => {
    const tree = compileTemplateTree({ a: '{% for i in (1..100000000) %}{% endfor %}' });
    expect(() => renderTemplateTree(tree, {})).toThrow(SwitchyardError);
    expect(() => renderTemplateTree(tree, {})).toThrow(expect.objectContaining({ code: 'template_render' }));
  });

  it('refuses values that are not YAML data', () => {
    expect(() => compileTemplateTree({ a: () => 1 })).toThrow(TypeError);
  });
});
