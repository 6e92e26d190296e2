import { afterAll, describe, expect, it } from 'vitest';
import { assertContentRenders, renderContents } from '@/lib/core/messages/render-content';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';

const renderer = createTemplateRenderer();
afterAll(() => renderer.close());

const parts = {
  subject: 'Order {{ order }} for {{ first_name }}',
  text: 'Hello {{ first_name | default("friend") }} <{{ html }}>',
  html: '<p>Hello {{ first_name }} {{ html }}{{ html | safe }}</p>',
  amp: null,
};

describe('renderContents', () => {
  it("renders every part with the recipient's values over the global ones; HTML parts escaped, text parts not", async () => {
    const globals = { order: 'A-17', first_name: 'friend', html: '<b>' };
    const [ada, bob] = await renderContents(renderer, [
      { parts, context: { ...globals, first_name: 'Ada' } },
      { parts, context: globals },
    ]);
    expect(ada).toEqual({
      ok: true,
      parts: {
        subject: 'Order A-17 for Ada',
        text: 'Hello Ada <<b>>',
        html: '<p>Hello Ada &lt;b&gt;<b></p>',
        amp: null,
      },
    });
    expect(bob).toMatchObject({ ok: true, parts: { subject: 'Order A-17 for friend' } });
  });

  it('a failure names the field', async () => {
    const [result] = await renderContents(renderer, [
      { parts: { ...parts, html: '{% for i in range(100000000) %}x{% endfor %}' }, context: {} },
    ]);
    expect(result).toEqual({
      ok: false,
      field: 'html_content',
      failure: { template: expect.any(Number), kind: 'render', message: 'range of 100000000 items (limit 10000)' },
    });
  });
});

describe('assertContentRenders (acceptance)', () => {
  const recipients = [{ email: 'a@example.org' }, { email: 'b@example.org', substitutions: { n: 100000000 } }];
  const cases: [string, Parameters<typeof assertContentRenders>[1], Record<string, unknown> | null, RegExp][] = [
    [
      'a syntax error names the field',
      { ...parts, html: '<p>{{ name </p>' },
      {},
      /^html_content: template syntax error: an expression \(\{\{\) opened on line 1 is not closed$/,
    ],
    [
      'the issue payload is refused',
      { ...parts, text: '{{ range.constructor("return process")() }}' },
      {},
      /^text_content: template error: Cannot call something that is not a function/,
    ],
    [
      'a limit reached with global data names the field',
      { ...parts, subject: '{% for i in range(n) %}x{% endfor %}' },
      { n: 100000000 },
      /^subject: template error: range of 100000000 items \(limit 10000\)$/,
    ],
    [
      "a limit reached with one recipient's data names the recipient",
      { ...parts, text: '{% for i in range(n) %}x{% endfor %}' },
      { n: 1 },
      /^text_content: template error for recipient b@example\.org: range of 100000000 items/,
    ],
  ];
  it.each(cases)('%s (400)', async (_name, content, globals, message) => {
    await expect(assertContentRenders(renderer, content, globals, recipients)).rejects.toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(message),
    });
  });

  it("passes content that renders for every recipient, answering the first recipient's parts (preflight sizes them)", async () => {
    await expect(assertContentRenders(renderer, parts, { first_name: 'x' }, recipients)).resolves.toMatchObject({
      subject: 'Order  for x',
      html: '<p>Hello x </p>',
    });
  });
});
