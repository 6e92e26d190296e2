import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import {
  TEMPLATE_FIELDS,
  WELCOME,
  expectError,
  expectTemplate,
  expectVersion,
  templateAccounts,
  templateHelpers,
} from '../support/template-fixtures';

/**
 * The templates API (marketing-api.md, Templates) on the shared server: drafts, published versions,
 * bad input, tenancy and scopes. Sending with a template is in templates-sending.spec.ts; parallel
 * writes in templates-concurrency.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
let sender: string;

test.beforeAll(async () => {
  ({ api, other, sender } = await templateAccounts());
});

test.describe.configure({ mode: 'serial' });

const { templates, newTemplate, published, keyWith } = templateHelpers(() => ({ api, sender }));

test('POST /templates - 201 with the draft; GET, PUT, list by kind and DELETE', async () => {
  const created = await api.post(templates(), { ...WELCOME, name: '  Welcome  ', kind: 'campaign' });
  expect(created.status).toBe(201);
  expectTemplate(created.body);
  expect(created.body).toMatchObject({
    name: 'Welcome',
    kind: 'campaign',
    latest_version: null,
    revision: 1,
    subject: WELCOME.subject,
  });
  const id = created.body.id;
  expect((await api.get(templates(api, `/${id}`))).body).toEqual(created.body);

  const edited = await api.put(templates(api, `/${id}`), { text_content: null, name: 'Renamed' });
  expect(edited.status).toBe(200);
  expectTemplate(edited.body);
  // Cleared, the text part is made from the HTML again.
  expect(edited.body).toMatchObject({
    name: 'Renamed',
    text_content: 'Hello {{ first_name }}, order {{ order.id }}',
    html_content: WELCOME.html_content,
    subject: WELCOME.subject,
    revision: 2,
  });

  const transactional = await newTemplate({ name: 'Receipt' });
  const campaigns = await api.get(templates(api, '?kind=campaign'));
  expect(campaigns.status).toBe(200);
  expect(campaigns.body.object).toBe('list');
  for (const item of campaigns.body.data) expectTemplate(item);
  expect(campaigns.body.data.map((item: { id: string }) => item.id)).toContain(id);
  expect(campaigns.body.data.map((item: { id: string }) => item.id)).not.toContain(transactional);
  const paged = await api.get(templates(api, '?limit=1'));
  expect(paged.body.data).toHaveLength(1);
  expect(paged.body.pagination.has_more).toBe(true);
  const next = await api.get(templates(api, `?limit=1&after=${paged.body.pagination.next_cursor}`));
  expect(next.body.data[0].id).not.toBe(paged.body.data[0].id);

  expect((await api.delete(templates(api, `/${id}`))).status).toBe(200);
  expectError(await api.get(templates(api, `/${id}`)), 404);
  expectError(await api.delete(templates(api, `/${id}`)), 404);
  expectError(await api.put(templates(api, `/${id}`), { name: 'x' }), 404);
  expect((await api.get(templates(api))).body.data.map((item: { id: string }) => item.id)).not.toContain(id);
});

test('POST /templates/:id/publish - twice gives versions 1 and 2, immutable when the draft is edited afterwards', async () => {
  const id = await newTemplate();
  const first = await api.post(templates(api, `/${id}/publish`));
  expect(first.status).toBe(201);
  expectVersion(first.body);
  expect(first.body).toMatchObject({
    template_id: id,
    version: 1,
    subject: WELCOME.subject,
    html_content: WELCOME.html_content,
    text_content: WELCOME.text_content,
  });
  expect((await api.put(templates(api, `/${id}`), { subject: 'Second {{ first_name }}' })).status).toBe(200);
  const second = await api.post(templates(api, `/${id}/publish`));
  expect(second.body).toMatchObject({ version: 2, subject: 'Second {{ first_name }}' });
  expect(
    (await api.put(templates(api, `/${id}`), { subject: 'Draft only', html_content: '<p>draft</p>' })).status,
  ).toBe(200);

  expect((await api.get(templates(api, `/${id}/versions/1`))).body).toEqual(first.body);
  expect((await api.get(templates(api, `/${id}/versions/2`))).body).toEqual(second.body);
  const versions = await api.get(templates(api, `/${id}/versions`));
  expect(versions.status).toBe(200);
  expect(versions.body).toEqual({ object: 'list', data: [second.body, first.body], pagination: { has_more: false } });
  expect((await api.get(templates(api, `/${id}`))).body).toMatchObject({ latest_version: 2, subject: 'Draft only' });
  expectError(await api.get(templates(api, `/${id}/versions/3`)), 404);
  expectError(await api.get(templates(api, `/${id}/versions/0`)), 400, /^version: /);
  expectError(await api.get(templates(api, `/${id}/versions/two`)), 400, /^version: /);
});

test('GET /templates/:id/versions - cursor-paginated like every list: after, before, the legacy cursor, bad cursors', async () => {
  const id = await newTemplate();
  for (let i = 0; i < 5; i++) expect((await api.post(templates(api, `/${id}/publish`))).status).toBe(201);
  const page = (query: string) => api.get(templates(api, `/${id}/versions?${query}`));
  const numbers = (response: { body: { data: { version: number }[] } }) =>
    response.body.data.map((version) => version.version);
  const first = await page('limit=2');
  expect(numbers(first)).toEqual([5, 4]);
  expect(first.body.pagination).toEqual({ has_more: true, next_cursor: expect.any(String) });
  const second = await page(`limit=2&after=${first.body.pagination.next_cursor}`);
  expect(numbers(second)).toEqual([3, 2]);
  expect(second.body.pagination.previous_cursor).toBeTruthy();
  const third = await page(`limit=2&after=${second.body.pagination.next_cursor}`);
  expect(numbers(third)).toEqual([1]);
  expect(third.body.pagination).toEqual({ has_more: false, previous_cursor: expect.any(String) });
  expect(numbers(await page(`limit=2&before=${third.body.pagination.previous_cursor}`))).toEqual([3, 2]);
  expect(numbers(await page(`limit=2&cursor=${first.body.pagination.next_cursor}&after=&before=`))).toEqual([3, 2]);
  expect(numbers(await page(''))).toEqual([5, 4, 3, 2, 1]);
  expectError(await page('limit=0'), 400, /limit must be between 1 and 100/);
  expectError(await page('after=nope'), 400, /invalid after cursor/);
  expectError(
    await page(`before=${Buffer.from(JSON.stringify({ id: randomUUID() })).toString('base64url')}`),
    400,
    /invalid before cursor/,
  );
  expectError(
    await page(`after=${first.body.pagination.next_cursor}&before=${first.body.pagination.next_cursor}`),
    400,
    /after and before cannot be used together/,
  );
});

test('POST /templates/:id/publish - a draft without a subject or a body is 400', async () => {
  const empty = await api.post(templates(), { name: 'Empty' });
  expect(empty.status).toBe(201);
  expect(empty.body).toMatchObject({ kind: 'transactional', subject: null, html_content: null, text_content: null });
  expectError(await api.post(templates(api, `/${empty.body.id}/publish`)), 400, /^subject: .*no subject/);
  await api.put(templates(api, `/${empty.body.id}`), { subject: 'S' });
  expectError(
    await api.post(templates(api, `/${empty.body.id}/publish`)),
    400,
    /^html_content: .*no html_content or text_content/,
  );
});

const syntaxErrors: [string, Record<string, unknown>, RegExp][] = [
  [
    'an unclosed expression in html_content',
    { html_content: '<p>\n{{ first_name </p>' },
    /^html_content: template syntax error: .*line 2/,
  ],
  [
    'a bad expression in text_content',
    { text_content: 'one\ntwo\n{{ a b }}' },
    /^text_content: template syntax error: .*line 3/,
  ],
  ['a stray endif in the subject', { subject: 'x {% endif %}' }, /^subject: template syntax error: .*line 1/],
  ['an unclosed block', { html_content: '{% if a %}\nyes' }, /^html_content: template syntax error: .*not closed/],
];

for (const [name, body, message] of syntaxErrors) {
  test(`POST and PUT /templates - ${name} is 400 naming the field and the line`, async () => {
    expectError(await api.post(templates(), { ...WELCOME, ...body }), 400, message);
    const id = await newTemplate();
    expectError(await api.put(templates(api, `/${id}`), body), 400, message);
    expect((await api.get(templates(api, `/${id}`))).body).toMatchObject(WELCOME);
  });
}

const badBodies: [string, Record<string, unknown>, RegExp][] = [
  ['a missing name', { name: undefined }, /^name: is required/],
  ['an empty name', { name: '  ' }, /^name: must not be empty/],
  ['a number for a name', { name: 5 }, /^name: must be a string/],
  ['an unknown kind', { kind: 'newsletter' }, /^kind: must be transactional or campaign/],
  ['an object for html_content', { html_content: { a: 1 } }, /^html_content: must be a string/],
  ['a subject over 2000 characters', { subject: 'x'.repeat(2001) }, /^subject: must be at most 2000 characters/],
  [
    'html_content over 1,000,000 characters',
    { html_content: 'x'.repeat(1_000_001) },
    /^html_content: must be at most 1000000 characters/,
  ],
];

for (const [name, body, message] of badBodies) {
  test(`POST /templates - ${name} is 400`, async () => {
    expectError(await api.post(templates(), { ...WELCOME, ...body }), 400, message);
  });
}

test('unknown template ids are 404 on every path', async () => {
  for (const id of [randomUUID(), 'not-a-uuid']) {
    expectError(await api.get(templates(api, `/${id}`)), 404);
    expectError(await api.put(templates(api, `/${id}`), { name: 'x' }), 404);
    expectError(await api.delete(templates(api, `/${id}`)), 404);
    expectError(await api.post(templates(api, `/${id}/publish`)), 404);
    expectError(await api.get(templates(api, `/${id}/versions`)), 404);
    expectError(await api.get(templates(api, `/${id}/versions/1`)), 404);
  }
  expectError(await api.get(templates(api, '?kind=newsletter')), 400, /^kind: /);
});

test('PUT /templates/:id - a stale revision is 409 without Retry-After and changes nothing', async () => {
  const id = await newTemplate();
  expect((await api.put(templates(api, `/${id}`), { name: 'A', revision: 1 })).status).toBe(200);
  const stale = await api.put(templates(api, `/${id}`), { name: 'B', revision: 1 });
  expectError(stale, 409, /^revision: the draft is at revision 2/);
  expect(stale.headers.get('retry-after')).toBeNull();
  expect((await api.get(templates(api, `/${id}`))).body.name).toBe('A');
});

test('tenancy: another account cannot read, change, publish, delete or send a template', async () => {
  const id = await published();
  expectError(await other.get(templates(other, `/${id}`)), 404);
  expectError(await other.put(templates(other, `/${id}`), { name: 'mine' }), 404);
  expectError(await other.post(templates(other, `/${id}/publish`)), 404);
  expectError(await other.get(templates(other, `/${id}/versions`)), 404);
  expectError(await other.get(templates(other, `/${id}/versions/1`)), 404);
  expectError(await other.delete(templates(other, `/${id}`)), 404);
  expect((await other.get(templates(other))).body.data.map((item: { id: string }) => item.id)).not.toContain(id);
  expect((await api.get(templates(api, `/${id}`))).body).toMatchObject({ name: 'Welcome', latest_version: 1 });
});

test('scopes: templates:read reads, templates:write writes and publishes, templates:delete deletes', async () => {
  const id = await published();
  const reader = await keyWith(['templates:read']);
  const writer = await keyWith(['templates:write']);
  const deleter = await keyWith(['templates:delete']);
  expect((await reader.get(templates(reader))).status).toBe(200);
  expect((await reader.get(templates(reader, `/${id}/versions/1`))).status).toBe(200);
  expectError(await reader.post(templates(reader), WELCOME), 403);
  expectError(await reader.post(templates(reader), { name: 12 }), 403);
  expectError(await reader.put(templates(reader, `/${id}`), { name: 'x' }), 403);
  expectError(await reader.post(templates(reader, `/${id}/publish`)), 403);
  expectError(await writer.get(templates(writer, `/${id}`)), 403);
  expectError(await writer.delete(templates(writer, `/${id}`)), 403);
  expect((await writer.post(templates(writer), WELCOME)).status).toBe(201);
  expect((await writer.put(templates(writer, `/${id}`), { name: 'x' })).status).toBe(200);
  expect((await writer.post(templates(writer, `/${id}/publish`))).status).toBe(201);
  expectError(await deleter.get(templates(deleter, `/${id}`)), 403);
  expect((await deleter.delete(templates(deleter, `/${id}`))).status).toBe(200);
});

test('the OpenAPI document lists the template endpoints with their scopes', async () => {
  const document = (await api.get('/v2/openapi.json', { apiKey: null })).body;
  const item = document.paths['/v2/accounts/{account_id}/templates/{template_id}'];
  expect(item.put.description).toMatch(/Retry-After/);
  expect(item.delete.security).toEqual([{ BearerAuth: ['templates:delete'] }]);
  expect(document.paths['/v2/accounts/{account_id}/templates/{template_id}/publish'].post.security).toEqual([
    { BearerAuth: ['templates:write'] },
  ]);
  expect(document.paths['/v2/accounts/{account_id}/templates/{template_id}/versions/{version}'].get.security).toEqual([
    { BearerAuth: ['templates:read'] },
  ]);
  const versions = document.paths['/v2/accounts/{account_id}/templates/{template_id}/versions'].get;
  expect(
    versions.parameters
      .filter((parameter: { in: string }) => parameter.in === 'query')
      .map((parameter: { name: string }) => parameter.name)
      .sort(),
  ).toEqual(['after', 'before', 'cursor', 'limit']);
  expect(document.components.schemas.Template.required.sort()).toEqual(TEMPLATE_FIELDS);
  expect(document.components.schemas.CreateMessageRequest.properties.template_id).toBeDefined();
});
