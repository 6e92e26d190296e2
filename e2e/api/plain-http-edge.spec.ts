import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { rawRequest } from '../support/raw-http';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * The plain-HTTP tracking port (HTTP_PORT) serves tracking links and nothing else, whatever the
 * request line hides in its path; the HTTPS port routes every such path on the one reading the
 * routers use. Requests are written byte for byte: no client library resolves their dot segments.
 */
let server: ServerHandle;
let httpPort: number;
let ca: string;
let apiKey: string;
let accountId: string;
let dropDatabase: (() => Promise<void>) | null = null;

test.beforeAll(async () => {
  httpPort = await freePort();
  const env: Record<string, string> = { HTTP_PORT: String(httpPort) };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_edge');
    dropDatabase = scratch.drop;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'plain-http-edge-secret-plain-http-edge-0001' });
  }
  server = await startServer({ env });
  ca = readFileSync(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8');
  ({ apiKey, accountId } = await createAccountWithKey(server.env, 'Plain HTTP edge'));
});

test.afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

/** Every spelling of "go up one segment" that some parser on the way resolves. */
const DOT_SEGMENTS: [string, string][] = [
  ['..', '..'],
  ['%2e%2e', '%2e%2e'],
  ['%2E%2e', '%2E%2e'],
  ['.%2e', '.%2e'],
  ['%2e.', '%2e.'],
  ['..%2f', '..%2f'],
  ['%2f..', 'x%2f..%2f..'],
  ['a backslash', '..\\'],
  ['%5c', '..%5c'],
  ['%5C', '..%5C'],
  ['double-encoded %252e%252e', '%252e%252e'],
  ['double-encoded %252e%252e%252f', '%252e%252e%252f'],
];

/** What lies behind the climb: an API list with keys in it, a dashboard-only endpoint, an unsubscribe page, the dashboard. */
const TARGETS = () => [`v2/accounts/${accountId}/api-keys`, 'internal/session', 'u/test', 'v2/ping', ''];

/** The separator after a climb: a backslash climb takes the rest as is; the others a slash. */
const join = (climb: string, target: string) => (/[\\/fFcC]$/.test(climb) ? `${climb}${target}` : `${climb}/${target}`);

const leaked = (body: string) =>
  /"object":"list"|aha-sk-|public_key|This was a test message|<html|"status":"ok"|unsubscribe/i.test(body);

for (const [name, climb] of DOT_SEGMENTS) {
  test(`HTTP_PORT: /t/${name}/... reaches no /v2, /internal, /u or dashboard content; 400 plain HTTP refused`, async () => {
    for (const target of TARGETS()) {
      const requestTarget = `/t/${join(climb, target)}`;
      const response = await rawRequest({
        port: httpPort,
        target: requestTarget,
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(leaked(response.body), `${requestTarget}: ${response.body.slice(0, 200)}`).toBe(false);
      expect({ target: requestTarget, status: response.status, body: response.body }).toEqual({
        target: requestTarget,
        status: 400,
        body: JSON.stringify({ message: 'plain HTTP is refused: use HTTPS' }),
      });
    }
  });
}

test('HTTP_PORT: empty segments, absolute-form and encoded prefixes reach only the tracking links', async () => {
  const targets = [
    `//v2/accounts/${accountId}/api-keys`,
    `/t//v2/accounts/${accountId}/api-keys`,
    `/t/%2fv2/accounts/${accountId}/api-keys`,
    `/%74/../v2/ping`,
    `/%74/o/x`,
    `http://127.0.0.1:${httpPort}/v2/accounts/${accountId}/api-keys`,
    `http://127.0.0.1:${httpPort}/t/../v2/accounts/${accountId}/api-keys`,
    `/t/.%09./v2/ping`,
    `/t/o/%2e%2e`,
  ];
  for (const target of targets) {
    const response = await rawRequest({ port: httpPort, target, headers: { authorization: `Bearer ${apiKey}` } });
    expect(leaked(response.body), `${target}: ${response.body.slice(0, 200)}`).toBe(false);
    // Refused at the door (400), or a tracking route that does not exist (404): nothing else is mounted.
    expect([400, 404], `${target}: ${response.status} ${response.body.slice(0, 200)}`).toContain(response.status);
  }
  const tracking = await rawRequest({ port: httpPort, target: '/t/o/not-a-token' });
  expect(tracking.status).toBe(404);
});

for (const [name, climb] of DOT_SEGMENTS) {
  test(`HTTPS: a path with ${name} is 400 naming the problem, not routed to the API or the dashboard`, async () => {
    for (const [prefix, target] of [
      ['t', `v2/accounts/${accountId}/api-keys`],
      ['dashboard', `v2/accounts/${accountId}/api-keys`],
      ['v2', 'domains'],
    ]) {
      const requestTarget = `/${prefix}/${join(climb, target)}`;
      const response = await rawRequest({
        port: server.port,
        ca,
        target: requestTarget,
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(leaked(response.body), `${requestTarget}: ${response.body.slice(0, 200)}`).toBe(false);
      expect(response.status, requestTarget).toBe(400);
      expect(JSON.parse(response.body).message).toMatch(/dot segment .* or a backslash/);
    }
  });
}

test('HTTPS: the API still answers on resolved paths, encoded ones included', async () => {
  const ping = await rawRequest({
    port: server.port,
    ca,
    target: '/v2/ping',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(ping.status).toBe(200);
  const keys = await rawRequest({
    port: server.port,
    ca,
    target: `/v%32/accounts/${accountId}/api-keys`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(keys.status).toBe(200);
  expect(keys.body).toContain('"object":"list"');
  // Over plain HTTP the same request is refused, keys and all.
  const plain = await rawRequest({
    port: httpPort,
    target: `/v2/accounts/${accountId}/api-keys`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(plain.status).toBe(400);
});
