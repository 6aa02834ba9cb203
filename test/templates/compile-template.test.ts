import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { compileTemplate } from '../../src/templates/compile-template.js';

function errorOf(run: () => unknown): SwitchyardError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchyardError);
    return error as SwitchyardError;
  }
  throw new Error('expected an error');
}

describe('compileTemplate', () => {
  it('renders fields, filters and tags', () => {
    const template = compileTemplate(
      '{{ event }}: {{ data.title | upcase }}{% if data.severity == "high" %} (urgent){% endif %}',
    );
    expect(template.source).toContain('{{ event }}');
    expect(template.render({ event: 'incident.created', data: { title: 'disk full', severity: 'high' } })).toBe(
      'incident.created: DISK FULL (urgent)',
    );
  });

  it('renders missing fields as empty text', () => {
    expect(compileTemplate('[{{ data.nope.deeper }}]').render({ data: {} })).toBe('[]');
  });

  it('escapes HTML in output values only, and slack control characters in slack mode', () => {
    const context = { data: { title: `<b>"Tom" & 'Jerry'</b>` } };
    expect(compileTemplate('<p>{{ data.title }}</p>', 'html').render(context)).toBe(
      '<p>&lt;b&gt;&#34;Tom&#34; &amp; &#39;Jerry&#39;&lt;/b&gt;</p>',
    );
    expect(compileTemplate('{{ data.title }}', 'none').render(context)).toBe(`<b>"Tom" & 'Jerry'</b>`);
  });

  it('keeps slack mentions in the template text but not in event values', () => {
    const template = compileTemplate('<!here> {{ data.title }} {{ data.list }}', 'slack');
    expect(template.render({ data: { title: '<!channel> <https://evil.example|click> & co', list: ['<a>', 1] } })).toBe(
      '<!here> &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co &lt;a&gt;1',
    );
    expect(template.render({ data: {} })).toBe('<!here>  ');
  });

  it('reports an unknown filter as a syntax error with its place in the template', () => {
    const error = errorOf(() => compileTemplate('line one\n  {{ data.title | shout }}'));
    expect(error.code).toBe('template_syntax');
    expect(error.message).toBe('undefined filter: shout (template line 2, column 3)');
  });

  it.each([
    ['{{ data.title ', 'not closed'],
    ['{% if %}yes{% endif %}', 'invalid value expression'],
    ['{% endif %}', 'tag "endif" not found'],
    ['{% raw %}{{ data.title }}', 'raw "{% raw %}{{ data.title }}" not closed'],
    ['{% include "secrets.txt" %}', 'tag "include" not found'],
    ['{% render "x" %}', 'tag "render" not found'],
    ['{% layout "x" %}', 'tag "layout" not found'],
  ])('reports %j as a syntax error', (source, message) => {
    const error = errorOf(() => compileTemplate(source));
    expect(error.code).toBe('template_syntax');
    expect(error.message).toContain(message);
    expect(error.message).toMatch(/\(template line \d+, column \d+\)$/);
  });

  it('refuses a template longer than the parse limit', () => {
    const error = errorOf(() => compileTemplate('x'.repeat(1_000_001)));
    expect(error.code).toBe('template_syntax');
    expect(error.message).toContain('parse length limit exceeded');
  });

  it('turns render failures into template_render errors', () => {
    const range = errorOf(() => compileTemplate('{% for i in (1..100000000) %}x{% endfor %}').render({}));
    expect(range.code).toBe('template_render');
    expect(range.message).toContain('memory alloc limit exceeded');
  });

  it('stops a render that runs too long', () => {
    const slow = compileTemplate(
      '{% for a in data.list %}{% for b in data.list %}{% for c in data.list %}{{ c }}{% endfor %}{% endfor %}{% endfor %}',
    );
    const list = Array.from({ length: 2000 }, (_, i) => i);
    const error = errorOf(() => slow.render({ data: { list } }));
    expect(error.code).toBe('template_render');
    expect(error.message).toContain('template render limit exceeded');
  });

  it('refuses output over the output limit', () => {
    const big = 'x'.repeat(1_000_000);
    const template = compileTemplate('{% for i in (1..9) %}{{ data.big }}{% endfor %}');
    const error = errorOf(() => template.render({ data: { big } }));
    expect(error.code).toBe('template_render');
    expect(error.message).toContain('over the limit of 8000000');
    expect(compileTemplate('{{ data.big }}{{ data.big }}').render({ data: { big } })).toHaveLength(2_000_000);
  });

  it('sees own properties only', () => {
    const template = compileTemplate(
      '[{{ data.constructor }}|{{ data.__proto__ }}|{{ data.title.constructor }}|{{ data.toString }}|{{ data.hasOwnProperty }}]',
    );
    expect(template.render({ data: { title: 'x' } })).toBe('[||||]');
    // A key that JSON.parse made an own property is ordinary data.
    const parsed = JSON.parse('{"__proto__": "own", "constructor": "also own"}') as Record<string, unknown>;
    expect(compileTemplate('{{ data.__proto__ }} {{ data.constructor }}').render({ data: parsed })).toBe(
      'own also own',
    );
  });

  it('does not evaluate Liquid found in event values', () => {
    const template = compileTemplate('{{ data.title }}');
    for (const title of [
      '{{ 7 | times: 6 }}',
      '{% raw %}{{ x }}{% endraw %}',
      '{% endraw %}{{ x }}',
      '{%- comment -%}',
    ]) {
      expect(template.render({ data: { title } })).toBe(title);
    }
  });
});
