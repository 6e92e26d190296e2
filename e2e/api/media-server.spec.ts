import { expect, test } from '@playwright/test';
import { fetch } from 'undici';
import { ApiClient } from '../support/client';
import { createAccountWithKey } from '../support/cli';
import { expectError, fetchPublic, paddedPng, uploaded, uploadMedia } from '../support/media-client';
import { IMAGES } from '../support/media-fixtures';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { rawRequest } from '../support/raw-http';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * The media library on a server of its own: a 1 MB quota (MEDIA_QUOTA_MB) held under parallel
 * uploads, public URLs on the plain-HTTP port (HTTP_PORT) that serves tracking links, and a server
 * killed (SIGKILL) in the middle of an upload, after which nothing half-stored is visible.
 */
const QUOTA = 1024 * 1024;
let server: ServerHandle;
let httpPort: number;
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | null = null;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  httpPort = await freePort();
  env = { MEDIA_QUOTA_MB: '1', HTTP_PORT: String(httpPort) };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_media');
    dropDatabase = scratch.drop;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'media-server-secret-media-server-secret-0001' });
  }
  server = await startServer({ env });
});

test.afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

async function newApi(): Promise<ApiClient> {
  const account = await createAccountWithKey(server.env);
  return new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
}

const listIds = async (api: ApiClient) =>
  (await api.get(api.account('/media?limit=100'))).body.data.map((item: { id: string }) => item.id) as string[];

test('quota: an upload that would pass MEDIA_QUOTA_MB is 413 naming what is used; a delete frees room', async () => {
  const api = await newApi();
  const file = paddedPng(IMAGES.png, 400 * 1024);
  const first = await uploaded(api, file);
  await uploaded(api, file);
  expectError(
    await uploadMedia(api, file),
    413,
    /^the media library is full: 0\.8 MB of 1 MB used, this file needs 0\.4 MB/,
  );
  expect(await listIds(api)).toHaveLength(2);
  expect((await api.delete(api.account(`/media/${first.id}`))).status).toBe(200);
  await uploaded(api, file);
});

test('quota: parallel uploads never pass it together; exactly the ones that fit are stored', async () => {
  const api = await newApi();
  // Five fit in 1 MB (1,000,000 bytes), a sixth does not.
  const file = paddedPng(IMAGES.png, 200_000);
  const answers = await Promise.all(Array.from({ length: 8 }, () => uploadMedia(api.with(api.apiKey), file)));
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([201, 201, 201, 201, 201, 413, 413, 413]);
  const listed = (await api.get(api.account('/media'))).body.data as { size_bytes: number }[];
  expect(listed).toHaveLength(5);
  expect(listed.reduce((sum, item) => sum + item.size_bytes, 0)).toBeLessThanOrEqual(QUOTA);
});

test('HTTP_PORT: public media is served there too, with the same headers; nothing else under /media', async () => {
  const api = await newApi();
  const created = await uploaded(api, IMAGES.gif);
  const plainUrl = `http://127.0.0.1:${httpPort}${new URL(created.url).pathname}`;
  const served = await fetchPublic(plainUrl);
  expect(served.status).toBe(200);
  expect(served.bytes.equals(IMAGES.gif)).toBe(true);
  expect(served.headers.get('content-type')).toBe('image/gif');
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  for (const target of [
    `/media/../v2/accounts/${api.accountId}/media`,
    `/media/%2e%2e/v2/ping`,
    `/media/%2fv2%2fping`,
    `/media//v2/accounts/${api.accountId}/media`,
    `/media/${created.id}.gif/../../v2/ping`,
    '/mediax/v2/ping',
  ]) {
    const response = await rawRequest({
      port: httpPort,
      target,
      headers: { authorization: `Bearer ${api.apiKey}` },
    });
    expect([400, 404], `${target}: ${response.status} ${response.body.slice(0, 200)}`).toContain(response.status);
    expect(response.body, target).not.toMatch(/"object":"list"|"status":"ok"|GIF/);
  }
  // The API itself is not on the plain port.
  const api2 = await fetch(`http://127.0.0.1:${httpPort}/v2/accounts/${api.accountId}/media`, {
    headers: { authorization: `Bearer ${api.apiKey}` },
  });
  expect(api2.status).toBe(400);
});

test('a server killed (SIGKILL) in the middle of an upload shows nothing half-stored after the restart', async () => {
  test.setTimeout(240_000);
  const api = await newApi();
  const kept = await uploaded(api, IMAGES.png, { fileName: 'kept.png' });
  const file = paddedPng(IMAGES.png, 600 * 1024);
  let sentHalf!: () => void;
  const halfSent = new Promise<void>((resolve) => (sentHalf = resolve));
  async function* halfThenStall() {
    yield file.subarray(0, file.length / 2);
    sentHalf();
    // The rest never comes: the server dies first.
    await new Promise(() => {});
  }
  const upload = fetch(api.baseUrl + api.account('/media'), {
    method: 'POST',
    body: halfThenStall(),
    duplex: 'half',
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'image/png' },
    dispatcher: api.with(api.apiKey).agent,
  } as never).then(
    (response) => response.status,
    () => 'connection lost',
  );
  await halfSent;
  // Give the server a moment to have read the half it was sent.
  await new Promise((resolve) => setTimeout(resolve, 500));
  server.process.kill('SIGKILL');
  await server.exited;
  expect(await upload).toBe('connection lost');
  server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
  const restarted = new ApiClient(server.baseUrl, server.dataDir, api.apiKey, api.accountId);
  expect(await listIds(restarted)).toEqual([kept.id]);
  // Ask the public side too: the served file is whole.
  const served = await fetchPublic(`${server.baseUrl}${new URL(kept.url).pathname}`, restarted.agent);
  expect(served.bytes.equals(IMAGES.png)).toBe(true);
});
