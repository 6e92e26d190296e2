import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

let api: ApiClient;

test.beforeAll(async () => {
  ({ api } = await newAccount('Chokepoint'));
});

test('unknown path is 404 and wrong method is 405 with Allow', async () => {
  const missing = await api.get(api.account('/no-such-resource'));
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ message: 'not found' });
  const wrongMethod = await api.request('PATCH', api.account('/api-keys'));
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  const wrongMethodOnItem = await api.post(api.account('/api-keys/01a20000-0000-7000-8000-000000000000'), {});
  expect(wrongMethodOnItem.status).toBe(405);
  expect(wrongMethodOnItem.headers.get('allow')).toBe('GET, PUT, DELETE');
});

const malformedBodies: [string, string, string | undefined, RegExp][] = [
  ['malformed JSON', '{"label": "x",', 'application/json', /malformed JSON/],
  [
    'a text/plain body',
    '{"label":"x","scopes":["domains:read"]}',
    'text/plain',
    /Content-Type must be application\/json/,
  ],
  ['a form body', 'label=x', 'application/x-www-form-urlencoded', /Content-Type must be application\/json/],
  ['no content type', '{"label":"x"}', undefined, /Content-Type must be application\/json/],
  ['a JSON array', '[1,2]', 'application/json', /expected a JSON object/],
  ['a JSON string', '"hello"', 'application/json', /expected a JSON object/],
  ['JSON null', 'null', 'application/json', /expected a JSON object/],
];

for (const [name, rawBody, contentType, message] of malformedBodies) {
  test(`POST api-keys with ${name} is 400 naming the problem`, async () => {
    const response = await api.request('POST', api.account('/api-keys'), {
      rawBody,
      headers: contentType ? { 'content-type': contentType } : {},
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['message']);
    expect(response.body.message).toMatch(message);
  });
}

test('a JSON content type with a charset is accepted', async () => {
  const response = await api.request('POST', api.account('/api-keys'), {
    rawBody: JSON.stringify({ label: 'charset', scopes: ['domains:read'] }),
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
  expect(response.status).toBe(201);
});

test('a body over 1 MB is 400 and nothing is created', async () => {
  const huge = { label: 'huge', scopes: ['domains:read'], padding: 'x'.repeat(1024 * 1024 + 10) };
  const response = await api.post(api.account('/api-keys'), huge);
  expect(response.status).toBe(400);
  expect(response.body.message).toMatch(/larger than the limit of 1 MB/);
  const listed = await api.get(api.account('/api-keys'));
  expect(listed.body.data.some((key: { label: string }) => key.label === 'huge')).toBe(false);
});

test('errors never carry stack traces or SQL', async () => {
  const responses = await Promise.all([
    api.request('POST', api.account('/api-keys'), { rawBody: '{', headers: { 'content-type': 'application/json' } }),
    api.get(api.account('/api-keys/not-a-uuid')),
    api.put(api.account(), { message_data_retention: 'seven' }),
  ]);
  for (const response of responses) {
    expect(response.status).toBe(400);
    expect(response.text).not.toMatch(/at .+\.ts:\d+|select |insert |drizzle|stack/i);
  }
});

test('plain HTTP is refused on the API port', async () => {
  const url = new URL(api.baseUrl);
  const response = await fetch(`http://${url.host}/v2/ping`, { headers: { authorization: `Bearer ${api.apiKey}` } });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ message: 'plain HTTP is refused: use HTTPS' });
});

test('X-Forwarded-For from an untrusted peer is ignored for the IP allow list', async () => {
  const created = await api.post(api.account('/api-keys'), {
    label: 'proxy-only',
    scopes: ['domains:read'],
    ip_allow_list: ['203.0.113.7'],
  });
  const key = api.with(created.body.secret_key);
  const response = await key.get('/v2/ping', { headers: { 'x-forwarded-for': '203.0.113.7' } });
  expect(response.status).toBe(403);
  expect(response.body.message).toMatch(/127\.0\.0\.1/);
});
