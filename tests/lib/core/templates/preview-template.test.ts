import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { previewTemplate } from '@/lib/core/templates/preview-template';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The template editor's preview: the render workers with their limits, on whatever the editor holds. */
let services: TestServices;
let principal: Principal;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
}, 60_000);

afterAll(() => services?.close());

const preview = (body: Record<string, unknown>, who: Principal = principal) => previewTemplate(as(services, who), body);
const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { kind: string; message: string; field?: string },
  );
  expect(error, 'expected the preview to be refused').not.toBeNull();
  return error!;
};

describe('previewTemplate', () => {
  it('renders each part with the substitutions, escaping values in HTML only', async () => {
    const result = await preview({
      subject: 'Hi {{ first_name }}',
      html_content: '<p>{{ first_name }} {{ plan | default("free") }}</p>',
      text_content: 'Hello {{ first_name }}{% if vip %}, VIP{% endif %}',
      substitutions: { first_name: 'Ada <b>', vip: true },
    });
    expect(result).toEqual({
      object: 'template_preview',
      subject: 'Hi Ada <b>',
      html_content: '<p>Ada &lt;b&gt; free</p>',
      text_content: 'Hello Ada <b>, VIP',
    });
  });

  it('missing parts stay null, and missing values print nothing', async () => {
    // The text part is made from the HTML (`{{ nobody }}`), and prints nothing either.
    expect(await preview({ html_content: '<p>{{ nobody }}</p>' })).toEqual({
      object: 'template_preview',
      subject: null,
      html_content: '<p></p>',
      text_content: '',
    });
    expect(await preview({ subject: '', text_content: '', substitutions: null })).toEqual({
      object: 'template_preview',
      subject: null,
      html_content: null,
      text_content: null,
    });
  });

  it.each([
    ['html_content', { html_content: '<p>\n{{ first_name </p>' }, /^html_content: template syntax error: .*line 2/],
    ['text_content', { text_content: 'one\ntwo\n{% endif %}' }, /^text_content: template syntax error: .*line 3/],
    ['subject', { subject: '{{ a b }}' }, /^subject: template syntax error: .*line 1/],
  ])('a syntax error in %s is invalid input naming the field and the line', async (field, body, message) => {
    const error = await rejection(preview(body));
    expect(error).toMatchObject({ kind: 'invalid_input', field });
    expect(error.message).toMatch(message);
  });

  it.each([
    [
      'a JavaScript constructor chain',
      '{{ range.constructor("return process.env")() }}',
      /^text_content: template error: /,
    ],
    [
      'a Python-style escape to globals',
      '{{ "".__class__.__mro__[1].__subclasses__() }}',
      /^text_content: template error: /,
    ],
    [
      'a huge range',
      '{% for i in range(100000000) %}x{% endfor %}',
      /^text_content: template error: range of 100000000 items/,
    ],
    [
      'nested loops past the iteration limit',
      '{% for i in range(10000) %}{% for j in range(10000) %}x{% endfor %}{% endfor %}',
      /^text_content: template error: /,
    ],
    [
      'endless recursion',
      '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}',
      /^text_content: template error: nested deeper than/,
    ],
  ])('%s is invalid input within the limits, never a crash or a hang', async (_name, text_content, message) => {
    const started = Date.now();
    const error = await rejection(preview({ text_content, substitutions: {} }));
    expect(error).toMatchObject({ kind: 'invalid_input', field: 'text_content' });
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/native code|process|=>/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('probes of objects and prototypes render nothing', async () => {
    const result = await preview({
      text_content: '{{ x.constructor }}|{{ x.__proto__ }}|{{ process }}|{{ range.prototype }}',
      substitutions: { x: {} },
    });
    expect(result.text_content).toBe('|||');
  });

  it('needs templates:read, like reading a template', async () => {
    expect((await preview({ text_content: 'ok' }, keyPrincipal(accountId, ['templates:read']))).text_content).toBe(
      'ok',
    );
    expect((await rejection(preview({ text_content: 'ok' }, keyPrincipal(accountId, ['contacts:read'])))).kind).toBe(
      'forbidden',
    );
  });

  it('refuses substitutions that are not an object', async () => {
    expect(await rejection(preview({ text_content: 'x', substitutions: ['a'] }))).toMatchObject({
      kind: 'invalid_input',
      field: 'substitutions',
    });
  });
});
