import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { expectError, templateAccounts, templateHelpers } from '../support/template-fixtures';

/**
 * Sending with a template through POST /messages, on the shared server. Sends are sandboxed; their
 * rendered content is read back from GET /messages/:id, as the messages suite does.
 */
let api: ApiClient;
let other: ApiClient;
let sender: string;

test.beforeAll(async () => {
  ({ api, other, sender } = await templateAccounts());
});

test.describe.configure({ mode: 'serial' });

const { templates, newTemplate, published, send, sentParts } = templateHelpers(() => ({ api, sender }));

test('POST /messages - template_id sends the latest published version rendered with substitutions per recipient', async () => {
  const id = await published();
  await api.put(templates(api, `/${id}`), { subject: 'Unpublished' });
  const response = await send({
    template_id: id,
    substitutions: { first_name: 'Friend', order: { id: 'G-1' } },
    recipients: [{ email: 'ada@example.org', substitutions: { first_name: 'Ada <b>' } }, { email: 'bob@example.org' }],
  });
  expect(response.status, response.text).toBe(202);
  expect(response.body.data.map((item: { status: string }) => item.status)).toEqual(['queued', 'queued']);
  const ada = await sentParts(response.body.data[0].id);
  expect(ada.subject).toBe('Hi Ada <b>');
  expect(ada.parts).toEqual([
    { content_type: 'text/plain', content: 'Hello Ada <b>' },
    { content_type: 'text/html', content: '<p>Hello Ada &lt;b&gt;, order G-1</p>' },
  ]);
  const bob = await sentParts(response.body.data[1].id);
  expect(bob.subject).toBe('Hi Friend');
  expect(bob.parts[0]).toEqual({ content_type: 'text/plain', content: 'Hello Friend' });
});

test('POST /messages - template_version picks a version; a template is rendered even without substitutions', async () => {
  const id = await published();
  await api.put(templates(api, `/${id}`), { subject: 'Version two', text_content: 'Two' });
  await api.post(templates(api, `/${id}/publish`));
  const first = await send({ template_id: id, template_version: 1 });
  expect(first.status, first.text).toBe(202);
  const parts = await sentParts(first.body.data[0].id);
  expect(parts.subject).toBe('Hi');
  expect(parts.parts[0]).toEqual({ content_type: 'text/plain', content: 'Hello ' });
  const latest = await send({ template_id: id });
  expect((await sentParts(latest.body.data[0].id)).subject).toBe('Version two');
});

test('POST /messages - template problems are 400 naming them, and nothing is queued', async () => {
  const draft = await newTemplate();
  const theirs = await published({}, other);
  const deleted = await published();
  await api.delete(templates(api, `/${deleted}`));
  const live = await published();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ template_id: draft }, /^template_id: template .* has no published version/],
    [{ template_id: randomUUID() }, /^template_id: no template .* in this account/],
    [{ template_id: theirs }, /^template_id: no template .* in this account/],
    [{ template_id: deleted }, /^template_id: no template/],
    [{ template_id: live, template_version: 2 }, /^template_version: .*no version 2 \(latest is 1\)/],
    [{ template_id: live, subject: 'S' }, /^template_id: give either template_id or subject, not both/],
    [
      { template_id: live, html_content: '<p>x</p>', text_content: 'x' },
      /^template_id: give either template_id or html_content, text_content, not both/,
    ],
    [{ template_id: 12 }, /^template_id: must be a template id/],
    [{ template_id: live, template_version: 'one' }, /^template_version: must be a positive integer/],
    [{ template_version: 1, subject: 'S', text_content: 'T' }, /^template_version: is only allowed with template_id/],
    [{ text_content: 'T' }, /^subject: is required/],
  ];
  const before = (await api.get(api.account('/messages?limit=100'))).body.data.length;
  for (const [body, message] of cases) expectError(await send(body), 400, message);
  expect((await api.get(api.account('/messages?limit=100'))).body.data.length).toBe(before);
});

test('hostile templates: accepted as drafts (they compile), refused at sending by the render limits, or rendered inert', async () => {
  const exec = "return process.mainModule.require('child_process').execSync('id').toString()";
  const refused: [Record<string, unknown>, RegExp][] = [
    [{ text_content: `{{ range.constructor("${exec}")() }}` }, /^text_content: template error: /],
    [
      { subject: '{{ "".constructor.constructor("return JSON.stringify(process.env)")() }}' },
      /^subject: template error: /,
    ],
    [
      { text_content: '{% for i in range(100000000) %}xxxxxxxx{% endfor %}' },
      /^text_content: template error: range of 100000000 items/,
    ],
    [
      { html_content: '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}' },
      /^html_content: template error: nested deeper than/,
    ],
  ];
  for (const [body, message] of refused) {
    const id = await published({ ...body });
    const response = await send({ template_id: id });
    expectError(response, 400, message);
    expect(response.text).not.toContain('uid=');
    expect(response.text).not.toContain('PATH=');
  }
  const probes =
    '{{ x.constructor }}|{{ x.__proto__ }}|{{ x["constructor"] }}|{{ process }}|{{ require }}|{{ globalThis }}|{{ range(3) | join(",") }}';
  const id = await published({
    subject: 'Probe {{ first_name }}',
    text_content: probes,
    html_content: `<p>${probes}</p>`,
  });
  const response = await api.request('POST', api.account('/messages'), {
    rawBody: JSON.stringify({
      from: { email: `news@${sender}` },
      template_id: id,
      sandbox: true,
      recipients: [{ email: 'r@example.org' }],
    }).replace(/}$/, ',"substitutions":{"__proto__":{"first_name":"polluted"},"constructor":{"prototype":1},"x":{}}}'),
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status, response.text).toBe(202);
  const sent = await sentParts(response.body.data[0].id);
  expect(sent.subject).toBe('Probe');
  expect(sent.parts).toEqual([
    { content_type: 'text/plain', content: '||||||0,1,2' },
    { content_type: 'text/html', content: '<p>||||||0,1,2</p>' },
  ]);
});
