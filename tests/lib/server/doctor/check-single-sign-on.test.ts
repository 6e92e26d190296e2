import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { checkSingleSignOn } from '@/lib/server/doctor/check-single-sign-on';

/** A provider's discovery document served on loopback; each test says what it holds. */
let server: http.Server;
let issuer: string;
let document: Record<string, unknown> | null = null;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration' || !document) return res.writeHead(404).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const configFor = (oidcIssuer: string) =>
  loadConfig({ OIDC_ISSUER: oidcIssuer, OIDC_CLIENT_ID: 'mailstead', OIDC_CLIENT_SECRET: 'a client secret' });
const discovery = (overrides: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/auth`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ['code', 'id_token'],
  ...overrides,
});

describe('checkSingleSignOn', () => {
  it('is skipped when single sign-on is not configured', async () => {
    expect(await checkSingleSignOn(loadConfig({}))).toMatchObject({ status: 'skip' });
  });

  it('is ok when the discovery document names the issuer and the code flow (a trailing slash aside)', async () => {
    document = discovery();
    expect(await checkSingleSignOn(configFor(`${issuer}/`))).toMatchObject({ status: 'ok' });
  });

  it.each([
    ['no discovery document', () => null, /could not be read: it answered 404/],
    [
      'another issuer',
      () => discovery({ issuer: 'https://elsewhere.example' }),
      /names its issuer "https:\/\/elsewhere/,
    ],
    ['no token endpoint', () => discovery({ token_endpoint: undefined }), /lacks token_endpoint/],
    ['no code flow', () => discovery({ response_types_supported: ['id_token'] }), /lacks response type "code"/],
  ])('fails on %s, saying what is wrong', async (_name, served, message) => {
    // The table is built before the server listens: the document is made now, with its address.
    document = served();
    const checked = await checkSingleSignOn(configFor(issuer));
    expect(checked.status).toBe('fail');
    expect(checked.message).toMatch(message);
    expect(checked.fix).toBeTruthy();
  });
});
