import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { routeAccount, routeHelpers } from '../support/route-fixtures';

/**
 * Bad input to the routes resource on the shared server: every field of a create refused with a
 * 400 naming it, broken and ill-typed bodies on update, malformed and unknown ids, bad list queries,
 * and the SSRF guard (this server has no ALLOW_PRIVATE_NETWORKS): private, loopback and metadata
 * addresses, names that resolve to them, rebinding at connect time. CRUD is in routes.spec.ts.
 */
let api: ApiClient;
let domainA: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, domainA } = await routeAccount(stamp));
});

const { publicUrl, routes, create } = routeHelpers(() => api, stamp);

const ok = () => ({ name: 'n', url: 'https://example.com/h', recipient: `*@rt-a-${stamp}.example.com` });
const badBodies: [string, () => Record<string, unknown>, RegExp][] = [
  ['no name', () => ({ ...ok(), name: undefined }), /name/],
  ['an empty name', () => ({ ...ok(), name: '  ' }), /name/],
  ['a name of 256 characters', () => ({ ...ok(), name: 'x'.repeat(256) }), /name.*255/],
  ['a numeric name', () => ({ ...ok(), name: 7 }), /name/],
  ['no url', () => ({ ...ok(), url: undefined }), /url/],
  ['a url that is not one', () => ({ ...ok(), url: 'not a url' }), /url/],
  ['an ftp url', () => ({ ...ok(), url: 'ftp://example.com/h' }), /url.*https/],
  ['an http url (no ALLOW_PRIVATE_NETWORKS)', () => ({ ...ok(), url: 'http://example.com/h' }), /url.*https/],
  ['a url of 2,100 characters', () => ({ ...ok(), url: `https://example.com/${'a'.repeat(2100)}` }), /url.*2048/],
  ['no recipient', () => ({ ...ok(), recipient: undefined }), /recipient/],
  ['a recipient that is not a string', () => ({ ...ok(), recipient: ['a@b.example'] }), /recipient/],
  ['a recipient of 256 characters', () => ({ ...ok(), recipient: `${'a'.repeat(245)}@example.com` }), /recipient.*255/],
  ['a wildcard domain', () => ({ ...ok(), recipient: 'support@*.example.com' }), /recipient.*local part only/],
  ['a recipient with a space', () => ({ ...ok(), recipient: 'sup port@example.com' }), /recipient/],
  ['a recipient with a bad domain', () => ({ ...ok(), recipient: 'support@exa_mple' }), /recipient/],
  [
    'a domain of another account',
    () => ({ ...ok(), recipient: 'support@example.com' }),
    /recipient: example\.com is not a domain of this account/,
  ],
  ['attachments as a string', () => ({ ...ok(), attachments: 'yes' }), /attachments/],
  ['headers as a number', () => ({ ...ok(), headers: 1 }), /headers/],
  ['group_by_message_id as null', () => ({ ...ok(), group_by_message_id: null }), /group_by_message_id/],
  ['strip_replies as a string', () => ({ ...ok(), strip_replies: 'false' }), /strip_replies/],
  ['enabled as a string', () => ({ ...ok(), enabled: 'true' }), /enabled/],
];
for (const [name, body, message] of badBodies) {
  test(`POST /routes - ${name} is 400 naming the field`, async () => {
    const response = await create(body());
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['message']);
    expect(response.body.message).toMatch(message);
  });
}

test('bad bodies and ids elsewhere: broken JSON, a body that is not an object, wrong types on update, a malformed id, an unknown id', async () => {
  const created = (await create({ name: 'Target', url: publicUrl(), recipient: `t@${domainA}` })).body;
  const broken = await api.request('POST', routes(), {
    rawBody: '{"name": ',
    headers: { 'content-type': 'application/json' },
  });
  expect(broken.status).toBe(400);
  expect(broken.body.message).toMatch(/invalid request body/);
  const list = await api.request('PUT', routes(`/${created.id}`), {
    rawBody: '[1,2]',
    headers: { 'content-type': 'application/json' },
  });
  expect(list.status).toBe(400);
  for (const [body, field] of [
    [{ enabled: 'no' }, /enabled/],
    [{ name: 12 }, /name/],
    [{ name: 'y'.repeat(256) }, /name/],
    [{ recipient: 'a@*' }, /recipient/],
    [{ recipient: `nobody@not-mine-${stamp}.example.com` }, /recipient: .* is not a domain of this account/],
    [{ url: 'https://10.0.0.1/x' }, /url/],
  ] as const) {
    const response = await api.put(routes(`/${created.id}`), body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(response.body.message).toMatch(field);
  }
  expect((await api.get(routes(`/${created.id}`))).body).toMatchObject({
    name: 'Target',
    recipient: `t@${domainA}`,
    enabled: true,
  });

  for (const response of [
    await api.get(routes('/not-a-uuid')),
    await api.put(routes('/not-a-uuid'), { name: 'x' }),
    await api.delete(routes('/not-a-uuid')),
    await api.post(routes('/not-a-uuid/trigger'), {}),
  ]) {
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/route_id/);
  }
  const unknown = randomUUID();
  for (const response of [
    await api.get(routes(`/${unknown}`)),
    await api.put(routes(`/${unknown}`), { name: 'x' }),
    await api.delete(routes(`/${unknown}`)),
    await api.post(routes(`/${unknown}/trigger`), {}),
  ]) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'route not found' });
  }
  for (const query of ['limit=0', 'limit=101', 'limit=x', 'after=not-a-cursor', 'domain=not_a_domain']) {
    const response = await api.get(routes(`?${query}`));
    expect(response.status, query).toBe(400);
  }
});

test.describe('the SSRF guard (no ALLOW_PRIVATE_NETWORKS on this server)', () => {
  const privateUrls: [string, string, RegExp][] = [
    ['loopback', 'https://127.0.0.1/route', /127\.0\.0\.1 is not a public address/],
    ['loopback in decimal', 'https://2130706433/route', /127\.0\.0\.1 is not a public address/],
    ['IPv6 loopback', 'https://[::1]/route', /::1 is not a public address/],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/route', /is not a public address/],
    ['localhost', 'https://localhost:8443/route', /localhost is this machine/],
    ['a private network', 'https://10.20.30.40/route', /10\.20\.30\.40 is not a public address/],
    [
      'link-local, cloud metadata',
      'https://169.254.169.254/latest/meta-data',
      /169\.254\.169\.254 is not a public address/,
    ],
    ['CGNAT', 'https://100.64.0.1/route', /100\.64\.0\.1 is not a public address/],
    ['IPv6 unique-local', 'https://[fd00::1]/route', /is not a public address/],
  ];
  for (const [name, url, message] of privateUrls) {
    test(`POST /routes - a URL to ${name} is 400 naming the problem`, async () => {
      const response = await create({ name: 'ssrf', url, recipient: '' });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^url: /);
      expect(response.body.message).toMatch(message);
    });
  }

  test('a name that resolves to a private address is refused at create and update; rebinding is refused at connect time', async () => {
    const host = `route-internal-${stamp}.example.com`;
    await new DnsControl().setA(host, '10.0.0.5');
    const refused = await create({ name: 'ssrf', url: `https://${host}/route`, recipient: '' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/resolves to 10\.0\.0\.5/);
    const rebinding = `route-rebind-${stamp}.example.com`;
    const created = await create({ name: 'rebinding', url: `https://${rebinding}/route`, recipient: '' });
    expect(created.status).toBe(201);
    expect((await api.put(routes(`/${created.body.id}`), { url: `https://${host}/route` })).status).toBe(400);
    await new DnsControl().setA(rebinding, '127.0.0.1');
    const triggered = await api.post(routes(`/${created.body.id}/trigger`), {});
    expect(triggered.body.data[0]).toMatchObject({
      status: 'failed',
      response_status: null,
      error: `${rebinding} resolves only to addresses that are not public (127.0.0.1)`,
    });
  });
});
