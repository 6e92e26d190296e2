import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { Agent } from 'undici';
import type { ApiClient } from '../support/client';
import { expectError, fetchPublic, paddedPng, uploaded, uploadMedia } from '../support/media-client';
import { CONTENT_TYPES, HOSTILE_FILES, IMAGES } from '../support/media-fixtures';
import { rawRequest } from '../support/raw-http';
import { newAccount } from '../support/shared';

/**
 * The media library (POST/GET/DELETE /v2/accounts/:id/media) and its public URLs on the shared
 * server: types read from the content, hostile files refused naming why, names shown but never
 * used in a path, tenancy and scopes. Quota, HTTP_PORT and a crash mid-upload are in media-server.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
let hostile: ApiClient;

test.beforeAll(async () => {
  ({ api } = await newAccount('Media'));
  ({ api: other } = await newAccount('Media (other account)'));
  ({ api: hostile } = await newAccount('Media (hostile uploads)'));
});

const media = (client = api, suffix = '') => client.account(`/media${suffix}`);
const MEDIA_FIELDS = ['content_type', 'created_at', 'height', 'id', 'name', 'object', 'size_bytes', 'url', 'width'];

test('POST /media - each accepted type, by form or as the body, is 201 with its detected type and dimensions', async () => {
  for (const [extension, bytes] of Object.entries(IMAGES)) {
    // Named and declared as something else: the content decides.
    const created = await uploadMedia(api, bytes, { fileName: `photo.bmp` });
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(MEDIA_FIELDS);
    expect(created.body).toMatchObject({
      object: 'media',
      name: 'photo.bmp',
      content_type: CONTENT_TYPES[extension as keyof typeof CONTENT_TYPES],
      size_bytes: bytes.length,
      width: 3,
      height: 2,
      url: `${api.baseUrl}/media/${created.body.id}.${extension}`,
    });
    expect((await api.get(media(api, `/${created.body.id}`))).body).toEqual(created.body);
  }
  const raw = await uploadMedia(api, IMAGES.gif, {
    as: 'raw',
    contentType: 'application/octet-stream',
    name: 'raw.gif',
  });
  expect(raw.status, raw.text).toBe(201);
  expect(raw.body).toMatchObject({ name: 'raw.gif', content_type: 'image/gif' });
});

test("GET /media - newest first, paginated like every list, without other accounts' files", async () => {
  const { api: own } = await newAccount('Media list');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await uploaded(own, IMAGES.png, { fileName: `p${i}.png` })).id);
  await uploaded(other, IMAGES.png);
  const first = await own.get(media(own, '?limit=2'));
  expect(first.status).toBe(200);
  expect(first.body.data.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
  expect(first.body.pagination.has_more).toBe(true);
  const second = await own.get(media(own, `?limit=2&after=${first.body.pagination.next_cursor}`));
  expect(second.body.data.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
  expect(second.body.pagination.has_more).toBe(false);
  expectError(await own.get(media(own, '?limit=0')), 400, /limit/);
  expectError(await own.get(media(own, '?after=not-a-cursor')), 400, /cursor/);
});

for (const file of HOSTILE_FILES) {
  test(`POST /media - ${file.title} is 400 naming why; nothing is stored`, async () => {
    const refused = await uploadMedia(hostile, file.bytes, { fileName: 'innocent.png' });
    expectError(refused, 400, file.refusal);
    expect((await hostile.get(media(hostile))).body.data).toEqual([]);
  });
}

test('POST /media - size, emptiness, form and Content-Type refusals name the problem', async () => {
  // Over the limit by its declared length: 413 before a byte is read, and the connection closed
  // (a client still writing may see the close before the answer).
  const declared = await uploadMedia(api.with(api.apiKey), paddedPng(IMAGES.png, 6 * 1024 * 1024)).catch(
    (error: Error) => ({ status: 0, text: `${error.message} ${(error.cause as Error | undefined)?.message ?? ''}` }),
  );
  if (declared.status !== 0) expectError(declared as never, 413, /^the upload is larger than the limit of 5 MB$/);
  else expect(declared.text).toMatch(/EPIPE|ECONNRESET|socket|closed|terminated/i);
  // Over by one byte, inside a request the chain reads: the file itself is measured.
  const justOver = paddedPng(IMAGES.png, 5 * 1024 * 1024 + 1);
  expect(justOver.length).toBe(5 * 1024 * 1024 + 1);
  expectError(await uploadMedia(api.with(api.apiKey), justOver), 413, /^the file is larger than the limit of 5 MB$/);
  expectError(await uploadMedia(api.with(api.apiKey), justOver, { as: 'raw' }), 413, /^the file is larger/);
  const atLimit = await uploadMedia(api, paddedPng(IMAGES.png, 5 * 1024 * 1024), { as: 'raw' });
  expect(atLimit.status, atLimit.text).toBe(201);
  expect((await api.delete(media(api, `/${atLimit.body.id}`))).status).toBe(200);

  expectError(await uploadMedia(api, Buffer.alloc(0)), 400, /^the file is empty$/);
  expectError(await uploadMedia(api, Buffer.alloc(0), { as: 'raw' }), 400, /^the file is empty$/);
  expectError(await uploadMedia(api, IMAGES.png, { fieldName: 'image' }), 400, /no "file" field/);
  expectError(await uploadMedia(api, IMAGES.png, { as: 'raw', contentType: 'text/html' }), 415, /got "text\/html"/);
  expectError(await uploadMedia(api, IMAGES.png, { as: 'raw', contentType: null }), 415, /got none/);
  expectError(
    await uploadMedia(api, Buffer.from('--x\r\nbroken'), { as: 'raw', contentType: 'multipart/form-data; boundary=x' }),
    400,
    /multipart body cannot be read/,
  );
  expectError(await uploadMedia(api, IMAGES.png, { name: 'n'.repeat(1001) }), 400, /^name: must be at most 1000/);
});

test('POST /media - names are for display only: traversal, control characters and long names are cleaned, the URL is the id', async () => {
  const cases: [string, string][] = [
    ['../../../../etc/passwd.png', 'passwd.png'],
    ['..\\..\\boot.ini.png', 'boot.ini.png'],
    ['%2e%2e%2fsecret.png', '%2e%2e%2fsecret.png'],
    ['a\u0001b\u007f\u202Egnp.exe\r\nX-Injected: 1.png', 'abgnp.exeX-Injected: 1.png'],
    ['<img src=x onerror=alert(1)>.png', '<img src=x onerror=alert(1)>.png'],
    ['..', 'image.png'],
  ];
  for (const [sent, shown] of cases) {
    const created = await uploaded(api, IMAGES.png, { name: sent });
    expect(created.name, sent).toBe(shown);
    expect(new URL(created.url).pathname).toBe(`/media/${created.id}.png`);
  }
  expect((await uploaded(api, IMAGES.png, { fileName: '../../etc/passwd.png' })).name).toBe('passwd.png');
  const long = await uploaded(api, IMAGES.png, { fileName: `${'x'.repeat(300)}.png` });
  expect(long.name).toBe('x'.repeat(200));
});

test('GET /media/{id}.{ext} - public, with the detected type, nosniff, a sandbox CSP, immutable caching and an ETag', async () => {
  const created = await uploaded(api, IMAGES.jpg, { fileName: 'x.png' });
  const served = await fetchPublic(created.url, api.agent);
  expect(served.status).toBe(200);
  expect(served.bytes.equals(IMAGES.jpg)).toBe(true);
  expect(served.headers.get('content-type')).toBe('image/jpeg');
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const etag = served.headers.get('etag')!;
  expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
  const again = await fetchPublic(created.url, api.agent, { 'if-none-match': etag });
  expect(again.status).toBe(304);
  expect(again.bytes.length).toBe(0);
  // The API's own answers stay uncached.
  expect((await api.get(media(api))).headers.get('cache-control')).toBe('no-store');
});

test('GET /media/... - only an existing id with its own extension is served; nothing else is reachable under /media', async () => {
  const created = await uploaded(api, IMAGES.png);
  const ca = (await import('node:fs')).readFileSync(`${api.dataDir}/tls/cert.pem`, 'utf8');
  const port = Number(new URL(api.baseUrl).port);
  const get = (target: string) => rawRequest({ port, ca, target });
  expect((await get(`/media/${created.id}.png`)).status).toBe(200);
  const notServed = [
    `/media/${created.id}.jpg`,
    `/media/${created.id}`,
    `/media/${created.id}.png/x`,
    `/media/${created.id.toUpperCase()}.PNG`,
    '/media/01a20000-0000-7000-8000-00000000beef.png',
    '/media/',
    '/media',
    `/media/x%2f..%2f..%2fv2%2fping`,
    `/media/%2fv2%2faccounts%2f${api.accountId}%2fapi-keys`,
    `/media/..%2f..%2fv2/ping`,
    `/media/%2e%2e/v2/ping`,
    `/media/${created.id}.png%00.html`,
  ];
  for (const target of notServed) {
    const response = await get(target);
    expect([400, 404], `${target}: ${response.status}`).toContain(response.status);
    expect(response.body, target).not.toMatch(/"object":"list"|aha-sk-|PNG/);
  }
  // The file is not reachable through the API path with someone else's key either.
  expectError(await other.get(media(other, `/${created.id}`)), 404);
});

test("GET /media/icons/{network}.png - the social block's icons are ours, served as PNG; no other name is", async () => {
  for (const network of ['facebook', 'x', 'instagram', 'linkedin', 'youtube', 'website']) {
    const served = await fetchPublic(`${api.baseUrl}/media/icons/${network}.png`, api.agent);
    expect(served.status, network).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  }
  for (const name of ['tiktok.png', 'x.gif', 'X.png', '..%2fx.png', 'constructor.png', 'x.png.html']) {
    const status = (await fetchPublic(`${api.baseUrl}/media/icons/${name}`, api.agent)).status;
    expect([400, 404], `${name}: ${status}`).toContain(status);
  }
});

test('GET /media/... - rate limited per client address: a flood is 429 with Retry-After, other readers are still served', async () => {
  // Each client from an address of its own on the loopback network, so that no other test's bucket is touched.
  const ca = readFileSync(`${api.dataDir}/tls/cert.pem`, 'utf8');
  // undici takes the local address on the agent; inside `connect` it was ignored, and every client was 127.0.0.1.
  const from = (address: string) => new Agent({ localAddress: address, connect: { ca }, connections: 32 });
  const flooding = from('127.0.0.91');
  // A name that is no media id: the limit is taken before any lookup, so the flood is quick to answer.
  const missing = `${api.baseUrl}/media/not-a-file`;
  // The bucket refills at 50 a second: on a busy machine a fixed burst can be served slower than
  // that, so the flood goes on in waves until the limit answers (or 20 waves prove it never does).
  const answers: Awaited<ReturnType<typeof fetchPublic>>[] = [];
  for (let wave = 0; wave < 20 && !answers.some((answer) => answer.status === 429); wave++)
    answers.push(...(await Promise.all(Array.from({ length: 350 }, () => fetchPublic(missing, flooding)))));
  const limited = answers.filter((answer) => answer.status === 429);
  expect(limited.length).toBeGreaterThan(0);
  expect(answers.filter((answer) => answer.status === 404).length).toBeGreaterThanOrEqual(300);
  expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(limited[0].headers.get('x-content-type-options')).toBe('nosniff');
  const created = await uploaded(api, IMAGES.png);
  const reader = from('127.0.0.92');
  expect((await fetchPublic(created.url, reader)).status).toBe(200);
  await Promise.all([flooding.close(), reader.close()]);
});

test('tenancy: another account cannot get, list or delete a file; unknown and malformed ids are 404', async () => {
  const created = await uploaded(api, IMAGES.png);
  expectError(await other.get(media(other, `/${created.id}`)), 404, /media file not found/);
  expectError(await other.delete(media(other, `/${created.id}`)), 404);
  expect((await other.get(media(other))).body.data.map((item: { id: string }) => item.id)).not.toContain(created.id);
  // The other account's key on this account's path: refused before anything is looked up.
  expect([401, 403, 404]).toContain((await other.get(media(api, `/${created.id}`))).status);
  expect([401, 403, 404]).toContain((await uploadMedia(other.with(other.apiKey, api.accountId), IMAGES.png)).status);
  for (const id of ['01a20000-0000-7000-8000-00000000beef', 'not-an-id', 'x'.repeat(300)])
    expectError(await api.get(media(api, `/${id}`)), 404);
  expect((await fetchPublic(created.url, api.agent)).status).toBe(200);
});

test('DELETE /media/{id} - the file is gone from the library and its URL is 404', async () => {
  const created = await uploaded(api, IMAGES.webp, { fileName: 'gone.webp' });
  const deleted = await api.delete(media(api, `/${created.id}`));
  expect(deleted.status).toBe(200);
  expect(deleted.body.message).toMatch(/gone\.webp/);
  expectError(await api.get(media(api, `/${created.id}`)), 404);
  expectError(await api.delete(media(api, `/${created.id}`)), 404);
  expect((await fetchPublic(created.url, api.agent)).status).toBe(404);
});

test('scopes: templates:read lists and reads, templates:write uploads, templates:delete deletes', async () => {
  const created = await uploaded(api, IMAGES.png);
  const keyWith = async (scopes: string[]) => {
    const key = await api.post(api.account('/api-keys'), { label: `media ${scopes.join(' ')}`, scopes });
    expect(key.status).toBe(201);
    return api.with(key.body.secret_key);
  };
  const reader = await keyWith(['templates:read']);
  const writer = await keyWith(['templates:write']);
  const deleter = await keyWith(['templates:delete']);
  expect((await reader.get(media(reader))).status).toBe(200);
  expect((await reader.get(media(reader, `/${created.id}`))).status).toBe(200);
  expectError(await uploadMedia(reader, IMAGES.png), 403);
  expectError(await reader.delete(media(reader, `/${created.id}`)), 403);
  expect((await uploadMedia(writer, IMAGES.png)).status).toBe(201);
  // Scope before the body: a caller without it learns nothing about the input rules.
  expectError(await uploadMedia(reader, Buffer.from('<svg/>')), 403);
  expectError(await writer.get(media(writer)), 403);
  expect((await deleter.delete(media(deleter, `/${created.id}`))).status).toBe(200);
  const document = (await api.get('/v2/openapi.json', { apiKey: null })).body;
  expect(document.paths['/v2/accounts/{account_id}/media'].post.security).toEqual([
    { BearerAuth: ['templates:write'] },
  ]);
});
