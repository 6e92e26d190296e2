import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import type { ApiClient, ApiResponse } from '../support/client';
import { verifiedDomain } from '../support/sending';
import { isPostgresRun } from '../support/server';
import { newAccount } from '../support/shared';

/**
 * The templates API (marketing-api.md, Templates) on the shared server, and sending with a template
 * through POST /messages. Sends are sandboxed; their rendered content is read back from GET
 * /messages/:id, as the messages suite does.
 */
let api: ApiClient;
let other: ApiClient;
const stamp = Date.now().toString(36);
const sender = `templates-${stamp}.example.com`;

test.beforeAll(async () => {
  ({ api } = await newAccount('Templates'));
  ({ api: other } = await newAccount('Templates (other account)'));
  await verifiedDomain(api, sender);
});

test.describe.configure({ mode: 'serial' });

const TEMPLATE_FIELDS = ['created_at', 'html_content', 'id', 'kind', 'latest_version', 'name', 'object', 'revision', 'subject', 'text_content', 'updated_at'];
const VERSION_FIELDS = ['created_at', 'html_content', 'object', 'subject', 'template_id', 'text_content', 'version'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const templates = (client = api, suffix = '') => client.account(`/templates${suffix}`);
const WELCOME = { name: 'Welcome', subject: 'Hi {{ first_name }}', html_content: '<p>Hello {{ first_name }}, order {{ order.id }}</p>', text_content: 'Hello {{ first_name }}' };

function expectTemplate(body: any) {
  expect(Object.keys(body).sort()).toEqual(TEMPLATE_FIELDS);
  expect(body.object).toBe('template');
  expect(body.id).toMatch(UUID);
  expect(['transactional', 'campaign']).toContain(body.kind);
  expect(body.latest_version === null || Number.isInteger(body.latest_version)).toBe(true);
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
}

function expectVersion(body: any) {
  expect(Object.keys(body).sort()).toEqual(VERSION_FIELDS);
  expect(body.object).toBe('template_version');
  expect(Number.isInteger(body.version)).toBe(true);
  expect(body.created_at).toMatch(RFC3339);
}

function expectError(response: ApiResponse, status: number, message?: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message) expect(response.body.message).toMatch(message);
}

async function newTemplate(body: Record<string, unknown> = {}, client = api): Promise<string> {
  const created = await client.post(templates(client), { ...WELCOME, ...body });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

async function published(body: Record<string, unknown> = {}, client = api): Promise<string> {
  const id = await newTemplate(body, client);
  expect((await client.post(templates(client, `/${id}/publish`))).status).toBe(201);
  return id;
}

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `templates ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

const send = (body: Record<string, unknown>, client = api) =>
  client.post(client.account('/messages'), { from: { email: `news@${sender}` }, recipients: [{ email: 'r@example.org' }], sandbox: true, ...body });

async function sentParts(id: string) {
  const message = await api.get(api.account(`/messages/${encodeURIComponent(id)}`));
  expect(message.status).toBe(200);
  return { subject: /^Subject: (.*)$/m.exec(message.body.content)?.[1].trim(), parts: message.body.content_parsed.parts };
}

test('POST /templates - 201 with the draft; GET, PUT, list by kind and DELETE', async () => {
  const created = await api.post(templates(), { ...WELCOME, name: '  Welcome  ', kind: 'campaign' });
  expect(created.status).toBe(201);
  expectTemplate(created.body);
  expect(created.body).toMatchObject({ name: 'Welcome', kind: 'campaign', latest_version: null, revision: 1, subject: WELCOME.subject });
  const id = created.body.id;
  expect((await api.get(templates(api, `/${id}`))).body).toEqual(created.body);

  const edited = await api.put(templates(api, `/${id}`), { text_content: null, name: 'Renamed' });
  expect(edited.status).toBe(200);
  expectTemplate(edited.body);
  expect(edited.body).toMatchObject({ name: 'Renamed', text_content: null, html_content: WELCOME.html_content, subject: WELCOME.subject, revision: 2 });

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
  expect(first.body).toMatchObject({ template_id: id, version: 1, subject: WELCOME.subject, html_content: WELCOME.html_content, text_content: WELCOME.text_content });
  expect((await api.put(templates(api, `/${id}`), { subject: 'Second {{ first_name }}' })).status).toBe(200);
  const second = await api.post(templates(api, `/${id}/publish`));
  expect(second.body).toMatchObject({ version: 2, subject: 'Second {{ first_name }}' });
  expect((await api.put(templates(api, `/${id}`), { subject: 'Draft only', html_content: '<p>draft</p>' })).status).toBe(200);

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

test('POST /templates/:id/publish - a draft without a subject or a body is 400', async () => {
  const empty = await api.post(templates(), { name: 'Empty' });
  expect(empty.status).toBe(201);
  expect(empty.body).toMatchObject({ kind: 'transactional', subject: null, html_content: null, text_content: null });
  expectError(await api.post(templates(api, `/${empty.body.id}/publish`)), 400, /^subject: .*no subject/);
  await api.put(templates(api, `/${empty.body.id}`), { subject: 'S' });
  expectError(await api.post(templates(api, `/${empty.body.id}/publish`)), 400, /^html_content: .*no html_content or text_content/);
});

const syntaxErrors: [string, Record<string, unknown>, RegExp][] = [
  ['an unclosed expression in html_content', { html_content: '<p>\n{{ first_name </p>' }, /^html_content: template syntax error: .*line 2/],
  ['a bad expression in text_content', { text_content: 'one\ntwo\n{{ a b }}' }, /^text_content: template syntax error: .*line 3/],
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
  ['html_content over 1,000,000 characters', { html_content: 'x'.repeat(1_000_001) }, /^html_content: must be at most 1000000 characters/],
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
    [{ template_id: live, html_content: '<p>x</p>', text_content: 'x' }, /^template_id: give either template_id or html_content, text_content, not both/],
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
    [{ subject: '{{ "".constructor.constructor("return JSON.stringify(process.env)")() }}' }, /^subject: template error: /],
    [{ text_content: '{% for i in range(100000000) %}xxxxxxxx{% endfor %}' }, /^text_content: template error: range of 100000000 items/],
    [{ html_content: '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}' }, /^html_content: template error: nested deeper than/],
  ];
  for (const [body, message] of refused) {
    const id = await published({ ...body });
    const response = await send({ template_id: id });
    expectError(response, 400, message);
    expect(response.text).not.toContain('uid=');
    expect(response.text).not.toContain('PATH=');
  }
  const probes = '{{ x.constructor }}|{{ x.__proto__ }}|{{ x["constructor"] }}|{{ process }}|{{ require }}|{{ globalThis }}|{{ range(3) | join(",") }}';
  const id = await published({ subject: 'Probe {{ first_name }}', text_content: probes, html_content: `<p>${probes}</p>` });
  const response = await api.request('POST', api.account('/messages'), {
    rawBody: JSON.stringify({ from: { email: `news@${sender}` }, template_id: id, sandbox: true, recipients: [{ email: 'r@example.org' }] }).replace(
      /}$/,
      ',"substitutions":{"__proto__":{"first_name":"polluted"},"constructor":{"prototype":1},"x":{}}}',
    ),
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

test('PUT /templates/:id in parallel - each succeeds or is 409 with Retry-After; the draft is one of the writes', async () => {
  const id = await newTemplate();
  const writes = Array.from({ length: 20 }, (_, index) => ({ subject: `Subject ${index}`, html_content: `<p>Body ${index}</p>`, text_content: `Text ${index}` }));
  const responses = await Promise.all(writes.map((body) => api.put(templates(api, `/${id}`), body)));
  for (const response of responses) {
    if (response.status === 409) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    else expect(response.status, response.text).toBe(200);
  }
  const succeeded = responses.filter((response) => response.status === 200);
  expect(succeeded.length).toBeGreaterThanOrEqual(1);
  const final = (await api.get(templates(api, `/${id}`))).body;
  const match = writes.find((write) => write.subject === final.subject);
  expect(match, 'the final subject is one of the writes').toBeDefined();
  expect({ subject: final.subject, html_content: final.html_content, text_content: final.text_content }).toEqual(match);
  // Every successful write was a revision of its own: none was lost in between.
  expect(new Set(succeeded.map((response) => response.body.revision)).size).toBe(succeeded.length);
  expect(final.revision).toBe(1 + succeeded.length);
});

test('POST /templates/:id/publish in parallel - consecutive versions, no gaps, no duplicates', async () => {
  const id = await newTemplate();
  const responses = await Promise.all(Array.from({ length: 12 }, () => api.post(templates(api, `/${id}/publish`))));
  for (const response of responses) {
    if (response.status === 409) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    else expect(response.status, response.text).toBe(201);
  }
  const numbers = responses.filter((response) => response.status === 201).map((response) => response.body.version).sort((a: number, b: number) => a - b);
  expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
  const versions = (await api.get(templates(api, `/${id}/versions`))).body.data.map((version: { version: number }) => version.version);
  expect(versions).toEqual([...numbers].reverse());
  expect((await api.get(templates(api, `/${id}`))).body.latest_version).toBe(numbers.length);
});

test('POST /templates in parallel with one Idempotency-Key - one template, replayed after', async () => {
  const key = randomUUID();
  const body = { ...WELCOME, name: `Idem ${key}` };
  const responses = await Promise.all(Array.from({ length: 10 }, () => api.post(templates(), body, { headers: { 'Idempotency-Key': key } })));
  for (const response of responses) {
    if (response.status === 409) {
      expect(response.headers.get('idempotent-replayed')).toBe('false');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } else expect(response.status, response.text).toBe(201);
  }
  const created = responses.filter((response) => response.status === 201);
  expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
  const replay = await api.post(templates(), body, { headers: { 'Idempotency-Key': key } });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.id).toBe(created[0].body.id);
  const all = await api.get(templates(api, '?limit=100'));
  expect(all.body.data.filter((item: { name: string }) => item.name === body.name)).toHaveLength(1);
  expect((await api.post(templates(), { ...body, name: 'different' }, { headers: { 'Idempotency-Key': key } })).status).toBe(422);
});

test('POST /templates/:id/publish with an Idempotency-Key - one version, replayed after', async () => {
  const id = await newTemplate();
  const key = randomUUID();
  const responses = await Promise.all(Array.from({ length: 6 }, () => api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } })));
  const created = responses.filter((response) => response.status === 201);
  expect(new Set(created.map((response) => response.body.version))).toEqual(new Set([1]));
  const replay = await api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } });
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.version).toBe(1);
  expect((await api.get(templates(api, `/${id}`))).body.latest_version).toBe(1);
});

test('a template write that keeps colliding is 409 with Retry-After, not stored for its Idempotency-Key (PostgreSQL)', async () => {
  test.skip(!isPostgresRun(), 'needs a second connection to hold the row lock');
  const id = await newTemplate();
  const holder = new pg.Client({ connectionString: process.env.MAILSTEAD_TEST_DATABASE_URL });
  await holder.connect();
  const key = randomUUID();
  try {
    await holder.query('begin');
    await holder.query('select id from templates where id = $1 for update', [id]);
    const busy = await api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } });
    expectError(busy, 409, /being changed by another request/);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(busy.headers.get('idempotent-replayed')).toBeNull();
    const put = await api.put(templates(api, `/${id}`), { name: 'blocked' });
    expectError(put, 409);
    expect(Number(put.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  } finally {
    await holder.query('rollback');
    await holder.end();
  }
  // The retry with the same key runs again rather than replaying the 409.
  const retried = await api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } });
  expect(retried.status, retried.text).toBe(201);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
  expect(retried.body.version).toBe(1);
  expect((await api.get(templates(api, `/${id}`))).body).toMatchObject({ name: 'Welcome', latest_version: 1 });
});

test('the OpenAPI document lists the template endpoints with their scopes', async () => {
  const document = (await api.get('/v2/openapi.json', { apiKey: null })).body;
  const item = document.paths['/v2/accounts/{account_id}/templates/{template_id}'];
  expect(item.put.description).toMatch(/Retry-After/);
  expect(item.delete.security).toEqual([{ BearerAuth: ['templates:delete'] }]);
  expect(document.paths['/v2/accounts/{account_id}/templates/{template_id}/publish'].post.security).toEqual([{ BearerAuth: ['templates:write'] }]);
  expect(document.paths['/v2/accounts/{account_id}/templates/{template_id}/versions/{version}'].get.security).toEqual([{ BearerAuth: ['templates:read'] }]);
  expect(document.components.schemas.Template.required.sort()).toEqual(TEMPLATE_FIELDS);
  expect(document.components.schemas.CreateMessageRequest.properties.template_id).toBeDefined();
});
