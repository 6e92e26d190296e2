import { expect, test } from '@playwright/test';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { startServer, type ServerHandle } from '../support/server';
import { newAccount, sharedServer } from '../support/shared';

/** The legacy POST /v1/email/send: X-Api-Key, v1 body, 201 with counts, `{"status"}` errors. */
let v2: ApiClient;
let v1Key: string;
let sender: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api: v2 } = await newAccount('Legacy v1'));
  sender = `v1-${stamp}.example.com`;
  await verifiedDomain(v2, sender);
  const created = await runCli(
    ['accounts', 'v1-key', v2.accountId!, '--label', 'legacy app', '--json'],
    sharedServer().cliEnv,
  );
  expect(created.code).toBe(0);
  v1Key = JSON.parse(created.stdout).key;
});

const send = (body: unknown, headers: Record<string, string> = { 'X-Api-Key': v1Key }) =>
  v2.request('POST', '/v1/email/send', { apiKey: null, body, headers });

const email = (overrides: Record<string, unknown> = {}) => ({
  from: { email: `app@${sender}`, name: 'App' },
  recipients: [{ email: 'one@example.org', name: 'One' }],
  content: { subject: 'Legacy', text_body: 'Hello', headers: { 'AhaSend-Sandbox': 'true' } },
  ...overrides,
});

test('201 with counts; good and bad recipients are counted apart; the messages join the v2 log', async () => {
  const response = await send(
    email({
      recipients: [{ email: 'good@example.org' }, { email: 'bad@192.0.2.1' }, { email: 'also-good@example.org' }],
    }),
  );
  expect(response.status).toBe(201);
  expect(response.body).toEqual({
    success_count: 2,
    fail_count: 1,
    failed_recipients: ['bad@192.0.2.1'],
    errors: [expect.stringMatching(/^bad@192\.0\.2\.1: invalid email address/)],
  });
  const listed = await v2.get(v2.account('/messages?recipient=also-good@example.org'));
  expect(listed.body.data).toHaveLength(1);
  await waitForStatus(v2, listed.body.data[0].id, 'Sandbox Delivered');
});

test('a bare content_id makes the attachment inline (v1 rule)', async () => {
  const response = await send(
    email({
      recipients: [{ email: 'inline@example.org' }],
      content: {
        subject: 'x',
        html_body: '<img src="cid:logo">',
        attachments: [
          { data: 'aGk=', base64: true, file_name: 'logo.png', content_type: 'image/png', content_id: 'logo' },
        ],
        headers: { 'AhaSend-Sandbox': '1' },
      },
    }),
  );
  expect(response.status).toBe(201);
  const [message] = (await v2.get(v2.account('/messages?recipient=inline@example.org'))).body.data;
  const full = await v2.get(v2.account(`/messages/${message.id}`));
  expect(full.body.content).toMatch(/Content-Disposition: inline/);
  expect(full.body.content).toMatch(/Content-ID: <logo>/);
});

test('a wrong or missing X-Api-Key is 403 invalid credentials; a v2 key is not a v1 key', async () => {
  for (const headers of [
    {},
    { 'X-Api-Key': 'v1-wrong' },
    { 'X-Api-Key': v2.apiKey! },
    { Authorization: `Bearer ${v2.apiKey}` },
  ]) {
    const response = await send(email(), headers as Record<string, string>);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'invalid credentials' });
  }
});

const badBodies: [string, unknown, RegExp][] = [
  ['no content', { from: { email: 'a@b.example' }, recipients: [{ email: 'x@example.org' }] }, /content/],
  ['neither text nor html', email({ content: { subject: 'x' } }), /text_content or html_content/],
  ['recipients not a list', email({ recipients: 'x@example.org' }), /recipients/],
  ['no recipients', email({ recipients: [] }), /recipients/],
  ['a domain that is not yours', email({ from: { email: 'a@not-yours.example' } }), /not a domain of this account/],
];

for (const [name, body, message] of badBodies) {
  test(`400 for ${name}, as {"status"}`, async () => {
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['status']);
    expect(response.body.status).toMatch(message);
  });
}

test('400 for a body that is not JSON', async () => {
  const response = await v2.request('POST', '/v1/email/send', {
    apiKey: null,
    rawBody: 'from=a',
    headers: { 'X-Api-Key': v1Key, 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.status).toBe(400);
  expect(response.body.status).toMatch(/application\/json/);
});

test('an unverified domain is 400', async () => {
  const name = `v1-unverified-${stamp}.example.com`;
  await v2.post(v2.account('/domains'), { domain: name });
  const response = await send(email({ from: { email: `a@${name}` } }));
  expect(response.status).toBe(400);
  expect(response.body.status).toMatch(/not verified/);
});

test.describe('rate limits', () => {
  // A server of its own with a limit of 1/s and no burst, so that a 429 does not depend on speed.
  let server: ServerHandle;
  let dropDatabase: (() => Promise<void>) | null = null;

  test.beforeAll(async () => {
    const env: Record<string, string> = { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_v1_rate');
      dropDatabase = scratch.drop;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'v1-rate-limit-secret-v1-rate-limit-secret' });
    }
    server = await startServer({ env });
  });

  test.afterAll(async () => {
    await server?.stop();
    await dropDatabase?.();
  });

  test('429 answers in the v1 envelope, {"status"}, with Retry-After', async () => {
    const account = await createAccountWithKey(server.env);
    const created = await runCli(['accounts', 'v1-key', account.accountId, '--label', 'limited', '--json'], server.env);
    expect(created.code).toBe(0);
    const client = new ApiClient(server.baseUrl, server.dataDir, null, account.accountId);
    const headers = { 'X-Api-Key': JSON.parse(created.stdout).key };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => client.request('POST', '/v1/email/send', { body: {}, headers })),
    );
    const limited = responses.filter((response) => response.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const response of limited) {
      expect(response.body).toEqual({ status: 'Too many requests, rate limited.' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });
});
