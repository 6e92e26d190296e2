import { describe, expect, it } from 'vitest';
import { compileTemplate } from '@/lib/core/templates/engine/compile-template';
import { renderTemplate } from '@/lib/core/templates/engine/render-template';
import type { RenderMode } from '@/lib/core/templates/engine/sandboxed-interpreter';

const render = (source: string, context: Record<string, unknown> = {}, mode: RenderMode = 'text') =>
  renderTemplate(compileTemplate(source), context, mode);

/** The syntax AhaSend documents (MiniJinja): names, conditions, loops, filters; undefined names print nothing. */
const syntax: [string, string, Record<string, unknown>, string][] = [
  ['a name', 'Hello {{ first_name }}!', { first_name: 'Ada' }, 'Hello Ada!'],
  ['a name without spaces', 'Hello {{first_name}}!', { first_name: 'Ada' }, 'Hello Ada!'],
  [
    'nested data',
    '{{ order.items[0].name }} x{{ order.items[0].qty }}',
    { order: { items: [{ name: 'Tea', qty: 2 }] } },
    'Tea x2',
  ],
  ['if / elif / else', '{% if n > 1 %}many{% elif n == 1 %}one{% else %}none{% endif %}', { n: 1 }, 'one'],
  ['if on a missing name', '{% if vip %}VIP{% else %}regular{% endif %}', {}, 'regular'],
  [
    'for with loop.index, first and last',
    '{% for item in items %}{{ loop.index }}.{{ item }}{% if not loop.last %}, {% endif %}{% endfor %}',
    { items: ['a', 'b', 'c'] },
    '1.a, 2.b, 3.c',
  ],
  [
    'for over a mapping',
    '{% for key, value in prices.items() %}{{ key }}={{ value }};{% endfor %}',
    { prices: { tea: 2, cake: 3.5 } },
    'tea=2;cake=3.5;',
  ],
  [
    'for with else on an empty list',
    '{% for x in items %}{{ x }}{% else %}nothing{% endfor %}',
    { items: [] },
    'nothing',
  ],
  ['for over a missing name', '[{% for x in missing %}{{ x }}{% endfor %}]', {}, '[]'],
  [
    'default',
    '{{ nickname | default("friend") }} {{ nickname | d("pal") }} {{ name | default("x") }}',
    { name: 'Ada' },
    'friend pal Ada',
  ],
  [
    'upper, lower, title, capitalize',
    '{{ s | upper }} {{ s | lower }} {{ s | title }} {{ s | capitalize }}',
    { s: "hello wORLD o'brien" },
    "HELLO WORLD O'BRIEN hello world o'brien Hello World O'Brien Hello world o'brien",
  ],
  [
    'trim, length, join, replace, first, last',
    '{{ s | trim }}|{{ l | length }}|{{ l | join(", ") }}|{{ s | trim | replace("a", "o") }}|{{ l | first }}{{ l | last }}',
    { s: '  banana ', l: ['x', 'y', 'z'] },
    'banana|3|x, y, z|bonono|xz',
  ],
  ['an undefined name prints nothing', 'a{{ missing }}b{{ missing.deeper.still }}c{{ missing | upper }}d', {}, 'abcd'],
  ['null prints nothing', '[{{ nothing }}]', { nothing: null }, '[]'],
  [
    'numbers and booleans',
    '{{ n }} {{ f }} {{ b }} {{ n + 1 }} {{ f * 2 }}',
    { n: 41, f: 1.5, b: true },
    '41 1.5 true 42 3.0',
  ],
  [
    'set and string concatenation',
    '{% set greeting = "Hi " ~ name %}{{ greeting }}{{ " " ~ missing ~ "!" }}',
    { name: 'Bob' },
    'Hi Bob !',
  ],
  ['macros', '{% macro tag(x) %}[{{ x }}]{% endmacro %}{{ tag("a") }}{{ tag(name) }}', { name: 'b' }, '[a][b]'],
  ['whitespace control and comments', 'a  {{- " b " -}}  c {#- a comment -#}  d {# another #}e', {}, 'a b cd e'],
  [
    'content kept as written: trailing newline, text with quotes and backslashes',
    'Line "one" \\ {{ x }}\n',
    { x: 'two' },
    'Line "one" \\ two\n',
  ],
  [
    'string literals with escapes and spaces',
    '{{ "a\\tb" }}|{{ \'  spaced  \' }}|{{ "x   y" | replace(" ", "_") }}',
    {},
    'a\tb|  spaced  |x___y',
  ],
  [
    'a loop over range',
    '{% for i in range(3) %}{{ i }}{% endfor %}{% for i in range(1, 7, 2) %}{{ i }}{% endfor %}',
    {},
    '012135',
  ],
  [
    'namespaces',
    '{% set ns = namespace(total=0) %}{% for p in prices %}{% set ns.total = ns.total + p %}{% endfor %}{{ ns.total }}',
    { prices: [1, 2, 3] },
    '6',
  ],
];

describe('renderTemplate: Jinja syntax as AhaSend documents it', () => {
  it.each(syntax)('%s', (_name, source, context, expected) => {
    expect(render(source, context)).toBe(expected);
  });

  it('text parts are not escaped', () => {
    expect(render('{{ v }} & {{ v | e }}', { v: '<b>"Tom" & \'Jerry\'</b>' })).toBe(
      '<b>"Tom" & \'Jerry\'</b> & &lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;',
    );
  });

  it('a syntax error says what and where', () => {
    expect(() => compileTemplate('<p>{{ name </p>')).toThrow(/an expression \(\{\{\) opened on line 1 is not closed/);
    expect(() => compileTemplate('line\n{% if x %}no end')).toThrow(/unexpected end of the template/);
    expect(() => compileTemplate('a\n\n{{ x @ y }}')).toThrow(/Unexpected character: @ \(line 3\)/);
  });
});

describe('renderTemplate in HTML mode', () => {
  const value = { v: '<script>alert("x")</script>&\'' };
  const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;';

  it('escapes every value by default and leaves template text alone', () => {
    expect(render('<p class="a">{{ v }}</p>', value, 'html')).toBe(`<p class="a">${escaped}</p>`);
    expect(render('<a href="{{ url }}">x</a>', { url: 'https://a.example/?a=1&b="2"' }, 'html')).toBe(
      '<a href="https://a.example/?a=1&amp;b=&quot;2&quot;">x</a>',
    );
    expect(render('{{ "<i>literal</i>" }} {{ n }}', { n: 5 }, 'html')).toBe('&lt;i&gt;literal&lt;/i&gt; 5');
  });

  it('`safe` opts out, `escape`/`e` escape once', () => {
    expect(render('{{ v | safe }}|{{ v | e }}|{{ v | e | e }}|{{ v | escape | safe }}', value, 'html')).toBe(
      `${value.v}|${escaped}|${escaped}|${escaped}`,
    );
  });

  it('what blocks render is escaped once, never twice', () => {
    const source =
      '{% macro box(x) %}<b>{{ x }}</b>{% endmacro %}{{ box(v) }}|{% set block %}<i>{{ v }}</i>{% endset %}{{ block }}|{% if true %}<u>{{ v }}</u>{% endif %}|{% for i in [v] %}{{ i }}{% endfor %}|{% call box("") %}{% endcall %}|{{ box(v) ~ v }}';
    expect(render(source, value, 'html')).toBe(
      `<b>${escaped}</b>|<i>${escaped}</i>|<u>${escaped}</u>|${escaped}|<b></b>|<b>${escaped}</b>${escaped}`,
    );
  });

  it('lists and mappings are escaped as text', () => {
    expect(render('{{ l }}', { l: ['<a>'] }, 'html')).toBe('[&quot;&lt;a&gt;&quot;]');
  });
});
