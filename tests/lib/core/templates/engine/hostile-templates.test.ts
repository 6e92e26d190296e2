import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTemplate } from '@/lib/core/templates/engine/compile-template';
import { renderTemplate } from '@/lib/core/templates/engine/render-template';
import type { RenderMode } from '@/lib/core/templates/engine/sandboxed-interpreter';
import { TEMPLATE_LIMITS, TemplateError } from '@/lib/core/templates/engine/template-limits';

/**
 * Templates written to escape the sandbox or to exhaust the server. Each must render inert (nothing
 * of JavaScript or of the process in its output) or be refused with a TemplateError, quickly.
 */
const SENTINEL = `sentinel-${randomBytes(8).toString('hex')}`;
const PWNED = path.join(os.tmpdir(), `mailstead-pwned-${randomBytes(6).toString('hex')}`);
const EXEC = `return process.mainModule.require('child_process').execSync('touch ${PWNED}').toString()`;
/** What must never be in an output or an error: the environment, JavaScript source or object text. */
const LEAKS = [
  SENTINEL,
  'native code',
  '=>',
  '[object',
  'uid=',
  'class ',
  'this.',
  'Map {',
  'mainModule',
  'child_process',
  'StringValue(',
];

beforeAll(() => {
  process.env.MAILSTEAD_TEMPLATE_SENTINEL = SENTINEL;
});
afterAll(() => {
  delete process.env.MAILSTEAD_TEMPLATE_SENTINEL;
});

type Outcome = { output: string } | { error: string };

function attempt(source: string, context: Record<string, unknown> = {}, mode: RenderMode = 'text'): Outcome {
  try {
    return { output: renderTemplate(compileTemplate(source), context, mode) };
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateError);
    return { error: (error as Error).message };
  }
}

function expectInert(source: string, context: Record<string, unknown> = { x: { a: 1 }, s: 'text', items: [{ a: 1 }] }) {
  for (const mode of ['text', 'html'] as const) {
    const outcome = attempt(source, context, mode);
    const text = 'output' in outcome ? outcome.output : outcome.error;
    for (const leak of LEAKS) expect(text, `${source} (${mode}) => ${text}`).not.toContain(leak);
    expect(text.length, source).toBeLessThan(500);
  }
  expect(existsSync(PWNED)).toBe(false);
}

const DANGEROUS_NAMES = [
  'constructor',
  '__proto__',
  'prototype',
  'process',
  'require',
  'global',
  'globalThis',
  'this',
  'self',
  'window',
  'Function',
  'eval',
  'module',
  'exports',
  'import',
  'mainModule',
  'env',
  'toString',
  'valueOf',
  '__defineGetter__',
  'call',
  'apply',
  'bind',
];
const BASES = [
  'x',
  's',
  'range',
  'namespace',
  'namespace()',
  '"str"',
  '42',
  '1.5',
  'true',
  'none',
  '[1, 2]',
  '{"a": 1}',
  'items',
  'items[0]',
  'missing',
  'range(3)',
  's.upper',
  'x.items',
];

describe('hostile templates: access to JavaScript objects, prototypes and globals', () => {
  it('the exact payloads of the issue are refused and run nothing', () => {
    for (const source of [
      `{{ range.constructor("${EXEC}")() }}`,
      '{{ range.constructor("return JSON.stringify(process.env)")() }}',
      '{{ range.constructor("return process")() }}',
    ]) {
      const outcome = attempt(source);
      expect(outcome).toEqual({ error: expect.stringMatching(/not a function/) });
      expectInert(source);
    }
  });

  it.each(DANGEROUS_NAMES)('%s as a variable, called, looped over and filtered is inert', (name) => {
    for (const source of [
      `{{ ${name} }}`,
      `{{ ${name}("${EXEC}") }}`,
      `{{ ${name}("${EXEC}")() }}`,
      `{% for k in ${name} %}{{ k }}{% endfor %}`,
      `{{ ${name} | string }}`,
      `{{ ${name} | tojson }}`,
      `{{ ${name} ~ "" }}`,
      `{% set y = ${name} %}{{ y }}`,
    ]) {
      expectInert(source);
    }
  });

  it.each(BASES)('attributes of %s in every form are inert', (base) => {
    for (const name of DANGEROUS_NAMES) {
      for (const access of [`${base}.${name}`, `${base}["${name}"]`, `(${base})["${name}"]["constructor"]`]) {
        for (const source of [
          `{{ ${access} }}`,
          `{{ ${access}("${EXEC}")() }}`,
          `{% for k in ${access} %}{{ k }}{% endfor %}`,
          `{{ [${access}] | join }}`,
        ]) {
          expectInert(source);
        }
      }
    }
  });

  it('filters cannot reach functions or object internals', () => {
    for (const source of [
      '{{ range | string }}',
      '{{ range | tojson }}',
      '{{ [range] | join }}',
      '{{ [range, namespace] | join(",") }}',
      '{{ range | list }}',
      '{{ range | first }}',
      '{{ [range] | first }}',
      '{{ "".upper | string }}',
      '{{ items | map(attribute="constructor") | list }}',
      '{{ items | map(attribute="__proto__") | first }}',
      '{{ items | selectattr("constructor") | list }}',
      '{{ x | dictsort }}',
      '{{ x | items }}',
      '{{ x | attr("constructor") }}',
      '{{ x | tojson(indent=2) }}',
      '{{ {"f": range} }}',
      '{{ {"f": range} | tojson }}',
      '{{ s | replace("t", range) }}',
      '{{ range | length }}',
    ]) {
      expectInert(source);
    }
  });

  it('function values cannot be printed, compared or concatenated', () => {
    for (const source of [
      '{{ range }}',
      '{{ range ~ "" }}',
      '{{ "" + range }}',
      '{{ range == "x" }}',
      '{{ range in "abc" }}',
      '{{ s.upper }}',
      '{{ x.get }}',
    ]) {
      expect(attempt(source, { s: 'a', x: {} })).toEqual({ error: expect.stringMatching(/function/) });
      expectInert(source);
    }
  });

  it('loops, sets, macros and call blocks give no way out', () => {
    for (const source of [
      '{% for k in range.constructor %}{{ k }}{% endfor %}',
      '{% for k in x.__proto__ %}{{ k }}{% endfor %}',
      '{% for k, v in x.items() %}{{ k }}{{ v.constructor }}{% endfor %}',
      '{% for i in range(2) %}{{ loop.constructor }}{{ loop.__proto__ }}{{ loop.index.constructor }}{% endfor %}',
      `{% set f = range.constructor %}{{ f("${EXEC}")() }}`,
      '{% set ns = namespace() %}{% set ns.constructor = 1 %}{% set ns.__proto__ = 2 %}{{ ns.__proto__ }}{{ ns.prototype }}',
      `{% macro m() %}{{ m.constructor("${EXEC}")() }}{% endmacro %}{{ m() }}`,
      '{% macro m() %}{{ caller.constructor }}{{ varargs.constructor }}{{ kwargs.__proto__ }}{% endmacro %}{% call m() %}x{% endcall %}',
      `{% call range.constructor("${EXEC}") %}x{% endcall %}`,
      `{% filter upper %}{{ range.constructor("${EXEC}")() }}{% endfilter %}`,
      '{{ raise_exception("boom") }}',
      '{{ strftime_now("%Y") }}',
    ]) {
      expectInert(source);
    }
  });

  it('substitutions with __proto__ and constructor keys are plain data and pollute nothing', () => {
    const context = JSON.parse(
      '{"__proto__": {"polluted": "yes", "first_name": "evil"}, "constructor": {"prototype": {"polluted": "yes"}}, "name": "Ada"}',
    );
    expect(
      attempt(
        '{{ name }}|{{ first_name }}|{{ polluted }}|{{ __proto__.polluted }}|{{ constructor.prototype.polluted }}',
        context,
      ),
    ).toEqual({ output: 'Ada|||yes|yes' });
    expect(attempt('{% for key in __proto__ %}{{ key }},{% endfor %}', context)).toEqual({
      output: 'polluted,first_name,',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('nothing of the environment is reachable in any way tried above', () => {
    expect(attempt('{{ env }}{{ process.env }}{{ MAILSTEAD_TEMPLATE_SENTINEL }}{{ environ }}')).toEqual({ output: '' });
  });
});

/** Each is refused with a TemplateError naming the limit, and returns well within the render's time limit. */
const exhausting: [string, string, Record<string, unknown>, RegExp][] = [
  [
    'the issue payload: a huge range',
    '{% for i in range(100000000) %}xxxxxxxx{% endfor %}',
    {},
    /range of 100000000 items \(limit 10000\)/,
  ],
  ['a huge range with a step', '{% for i in range(0, 100000000, 2) %}x{% endfor %}', {}, /range of 50000000 items/],
  ['a huge descending range', '{% for i in range(100000000, 0, -1) %}x{% endfor %}', {}, /range of 100000000 items/],
  [
    'a long list from the data',
    '{% for i in big %}x{% endfor %}',
    { big: Array.from({ length: 20_000 }, (_, i) => i) },
    /loop over 20000 iterations \(limit 10000\)/,
  ],
  [
    'nested loops',
    '{% for i in range(10000) %}{% for j in range(10000) %}{% for k in range(10000) %}x{% endfor %}{% endfor %}{% endfor %}',
    {},
    /iterations in all|longer than|steps/,
  ],
  ['endless recursion', '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}', {}, /nested deeper than 300 levels/],
  [
    'exponential recursion',
    '{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}',
    {},
    /longer than|steps/,
  ],
  [
    'doubling a string',
    '{% set ns = namespace(s="xxxxxxxx") %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}',
    {},
    /characters \(limit/,
  ],
  [
    'doubling a list',
    '{% set ns = namespace(a=[1]) %}{% for i in range(64) %}{% set ns.a = ns.a + ns.a %}{% endfor %}{{ ns.a | length }}',
    {},
    /a list of \d+ items/,
  ],
  ['replace amplification (method)', '{{ s.replace("", s) }}', { s: 'x'.repeat(100_000) }, /characters \(limit/],
  ['replace amplification (filter)', '{{ s | replace("x", s) }}', { s: 'x'.repeat(100_000) }, /characters \(limit/],
  [
    'join amplification',
    '{{ l | join(s) }}',
    { s: 'x'.repeat(100_000), l: Array(1_000).fill('a') },
    /characters \(limit/,
  ],
  ['join of a string', '{{ s | join(s) }}', { s: 'x'.repeat(100_000) }, /characters \(limit/],
  ['indent amplification', '{{ s | indent(1000000000) }}', { s: 'a\nb' }, /characters \(limit/],
  ['tojson indentation', '{{ x | tojson(indent=100000000) }}', { x: { a: [1, 2] } }, /indent is at most 16/],
  [
    'tojson of many references to a long string',
    '{% set ns = namespace(a=[s]) %}{% for i in range(12) %}{% set ns.a = ns.a + ns.a %}{% endfor %}{{ ns.a | tojson }}',
    { s: 'x'.repeat(100_000) },
    /more than \d+ characters/,
  ],
  [
    'a long output',
    '{% for i in range(10000) %}{{ s }}{% endfor %}',
    { s: 'x'.repeat(1_000) },
    /(string of|output is longer than) \d+ characters/,
  ],
  [
    'a self-referencing namespace',
    '{% set ns = namespace() %}{% set ns.self = ns %}{{ ns }}',
    {},
    /nested deeper than/,
  ],
  [
    'deeply nested data',
    '{{ x }}',
    { x: JSON.parse('['.repeat(500) + ']'.repeat(500)) },
    /nested deeper than 64 levels/,
  ],
];

describe('hostile templates: exhausting time and memory', () => {
  it.each(exhausting)('%s is refused', (_name, source, context, message) => {
    const started = performance.now();
    expect(attempt(source, context)).toEqual({ error: expect.stringMatching(message) });
    expect(performance.now() - started).toBeLessThan(TEMPLATE_LIMITS.timeMs + 1_000);
  });

  it('templates that would be slow to compile are refused or compile quickly', () => {
    const cases: [string, RegExp | null][] = [
      ['{{ ' + '('.repeat(100_000) + ' }}', /nested too deeply|Unexpected/],
      [' '.repeat(2_000_000) + '{{ "' + ' '.repeat(200_000) + '" }}', null],
      ['{{ x }}'.repeat(TEMPLATE_LIMITS.maxTags + 1), /more than 20000 tags/],
      ['{{ x '.repeat(1_000), /not closed/],
    ];
    for (const [source, message] of cases) {
      const started = performance.now();
      if (message) expect(() => compileTemplate(source)).toThrow(message);
      else expect(compileTemplate(source).sourceLength).toBe(source.length);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});
