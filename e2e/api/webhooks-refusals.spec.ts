import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { newAccount } from '../support/shared';

/**
 * What the webhooks resource (`/v2/accounts/{id}/webhooks`) refuses, on the shared server, which has no
 * ALLOW_PRIVATE_NETWORKS: bad bodies and ids, keys without the scope or the domain, another account's
 * webhooks, and URLs to private addresses (the SSRF guard, DNS rebinding included). The resource's
 * CRUD is in webhooks.spec.ts.
 */
const stamp = Date.now().toString(36);
let counter = 0;
const publicUrl = (label = 'hook') => `https://hooks-${stamp}.example.com/${label}-${counter++}`;

test.describe('on the shared server', () => {
  let api: ApiClient;
  let domainA: string;
  let domainB: string;

  test.beforeAll(async () => {
    ({ api } = await newAccount('Webhook refusals'));
    domainA = `wh-ra-${stamp}.example.com`;
    domainB = `wh-rb-${stamp}.example.com`;
    for (const domain of [domainA, domainB])
      expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  });

  const hooks = (suffix = '') => api.account(`/webhooks${suffix}`);
  const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
    client.post(client.account('/webhooks'), body, { headers });

  /** A client with a new key of this account holding `scopes`. */
  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const created = await api.post(api.account('/api-keys'), { label: `holder of ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api.with(created.body.secret_key);
  }

  const badBodies: [string, Record<string, unknown>, RegExp][] = [
    ['no name', { url: 'https://example.com/h', scope: 'global' }, /name/],
    ['an empty name', { name: '  ', url: 'https://example.com/h', scope: 'global' }, /name/],
    ['a name of 256 characters', { name: 'x'.repeat(256), url: 'https://example.com/h', scope: 'global' }, /name.*255/],
    ['a numeric name', { name: 7, url: 'https://example.com/h', scope: 'global' }, /name/],
    ['no url', { name: 'n', scope: 'global' }, /url/],
    ['a url that is not one', { name: 'n', url: 'not a url', scope: 'global' }, /url/],
    ['an ftp url', { name: 'n', url: 'ftp://example.com/h', scope: 'global' }, /url.*https/],
    [
      'an http url (no ALLOW_PRIVATE_NETWORKS)',
      { name: 'n', url: 'http://example.com/h', scope: 'global' },
      /url.*https/,
    ],
    [
      'a url of 2,100 characters',
      { name: 'n', url: `https://example.com/${'a'.repeat(2100)}`, scope: 'global' },
      /url.*2048/,
    ],
    ['no scope', { name: 'n', url: 'https://example.com/h' }, /scope/],
    ['an unknown scope', { name: 'n', url: 'https://example.com/h', scope: 'everything' }, /scope/],
    ['scoped without domains', { name: 'n', url: 'https://example.com/h', scope: 'scoped' }, /domains/],
    ['scoped with no domain', { name: 'n', url: 'https://example.com/h', scope: 'scoped', domains: [] }, /domains/],
    [
      'domains that are not a list',
      { name: 'n', url: 'https://example.com/h', scope: 'scoped', domains: 'a.example.com' },
      /domains/,
    ],
    [
      'a domain of another account',
      { name: 'n', url: 'https://example.com/h', scope: 'scoped', domains: ['example.com'] },
      /domains: example\.com is not a domain of this account/,
    ],
    ['a flag as a string', { name: 'n', url: 'https://example.com/h', scope: 'global', on_opened: 'yes' }, /on_opened/],
    ['enabled as a string', { name: 'n', url: 'https://example.com/h', scope: 'global', enabled: 'true' }, /enabled/],
  ];
  for (const [name, body, message] of badBodies) {
    test(`POST /webhooks - ${name} is 400 naming the field`, async () => {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['message']);
      expect(response.body.message).toMatch(message);
    });
  }

  test('bad bodies and ids elsewhere: a broken JSON body, a body that is not an object, a malformed id, an unknown id', async () => {
    const created = (await create({ name: 'Target', url: publicUrl(), scope: 'global' })).body;
    const broken = await api.request('POST', hooks(), {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/invalid request body/);
    const list = await api.request('PUT', hooks(`/${created.id}`), {
      rawBody: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(list.status).toBe(400);
    const wrongType = await api.put(hooks(`/${created.id}`), { on_failed: 'no', name: 12 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toMatch(/on_failed|name/);
    const nameTooLong = await api.put(hooks(`/${created.id}`), { name: 'y'.repeat(256) });
    expect(nameTooLong.status).toBe(400);
    expect(nameTooLong.body.message).toMatch(/name/);

    const malformed = await api.get(hooks('/not-a-uuid'));
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/webhook_id/);
    const unknown = randomUUID();
    for (const response of [
      await api.get(hooks(`/${unknown}`)),
      await api.put(hooks(`/${unknown}`), { name: 'x' }),
      await api.delete(hooks(`/${unknown}`)),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'webhook not found' });
    }

    const badTriggers: [unknown, RegExp][] = [
      [{}, /events/],
      [{ events: [] }, /events/],
      [{ events: ['message.exploded'] }, /events/],
      [{ events: 'message.delivered' }, /events/],
    ];
    for (const [body, message] of badTriggers) {
      const response = await api.post(hooks(`/${created.id}/trigger`), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toMatch(message);
    }
  });

  test('scopes: no webhook scope is 403 everywhere; read cannot write; a domain key sees and changes only webhooks of its domains', async () => {
    const global = (await create({ name: 'Global', url: publicUrl(), scope: 'global' })).body;
    const ofA = (await create({ name: 'Of A', url: publicUrl(), scope: 'scoped', domains: [domainA] })).body;
    const ofB = (await create({ name: 'Of B', url: publicUrl(), scope: 'scoped', domains: [domainB] })).body;

    const none = await keyWith(['domains:read']);
    for (const response of [
      await none.get(hooks()),
      await none.get(hooks(`/${global.id}`)),
      await create({ name: 'x', url: publicUrl(), scope: 'global' }, none),
      await none.put(hooks(`/${global.id}`), { name: 'x' }),
      await none.delete(hooks(`/${global.id}`)),
      await none.post(hooks(`/${global.id}/trigger`), { events: ['message.delivered'] }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: expect.stringMatching(/permission|scope/) });
    }

    const reader = await keyWith(['webhooks:read:all']);
    expect((await reader.get(hooks(`/${global.id}`))).status).toBe(200);
    expect((await create({ name: 'x', url: publicUrl(), scope: 'global' }, reader)).status).toBe(403);
    expect((await reader.put(hooks(`/${ofA.id}`), { name: 'x' })).status).toBe(403);
    expect((await reader.delete(hooks(`/${ofA.id}`))).status).toBe(403);

    const ofDomainA = await keyWith([
      `webhooks:read:{${domainA}}`,
      `webhooks:write:{${domainA}}`,
      `webhooks:delete:{${domainA}}`,
    ]);
    const visible = (await ofDomainA.get(hooks('?limit=100'))).body.data.map((item: { id: string }) => item.id);
    expect(visible).toContain(ofA.id);
    expect(visible).not.toContain(ofB.id);
    expect(visible).not.toContain(global.id);
    expect((await ofDomainA.get(hooks(`/${ofA.id}`))).status).toBe(200);
    expect((await ofDomainA.get(hooks(`/${ofB.id}`))).status).toBe(403);
    expect((await ofDomainA.get(hooks(`/${global.id}`))).status).toBe(403);
    // A global webhook needs webhooks:write:all; a scoped one needs every domain it names.
    expect((await create({ name: 'x', url: publicUrl(), scope: 'global' }, ofDomainA)).status).toBe(403);
    expect((await create({ name: 'x', url: publicUrl(), scope: '' }, ofDomainA)).status).toBe(403);
    expect(
      (await create({ name: 'x', url: publicUrl(), scope: 'scoped', domains: [domainA, domainB] }, ofDomainA)).status,
    ).toBe(403);
    const mine = await create({ name: 'Mine', url: publicUrl(), scope: 'scoped', domains: [domainA] }, ofDomainA);
    expect(mine.status).toBe(201);
    expect((await ofDomainA.put(hooks(`/${mine.body.id}`), { domains: [domainB] })).status).toBe(403);
    expect((await ofDomainA.put(hooks(`/${mine.body.id}`), { scope: 'global' })).status).toBe(403);
    expect((await ofDomainA.put(hooks(`/${ofB.id}`), { name: 'x' })).status).toBe(403);
    expect((await ofDomainA.delete(hooks(`/${ofB.id}`))).status).toBe(403);
    expect((await ofDomainA.put(hooks(`/${mine.body.id}`), { name: 'Mine, renamed' })).body.name).toBe('Mine, renamed');
    expect((await ofDomainA.delete(hooks(`/${mine.body.id}`))).status).toBe(200);
  });

  test("tenancy: another account's webhook is 404 under this account; this key on the other account's path is 401", async () => {
    const { api: other } = await newAccount('Webhook stranger');
    const theirs = (await other.post(other.account('/webhooks'), { name: 'Theirs', url: publicUrl(), scope: 'global' }))
      .body;
    for (const response of [
      await api.get(hooks(`/${theirs.id}`)),
      await api.put(hooks(`/${theirs.id}`), { name: 'Mine now' }),
      await api.delete(hooks(`/${theirs.id}`)),
      await api.post(hooks(`/${theirs.id}/trigger`), { events: ['message.delivered'] }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'webhook not found' });
    }
    expect((await api.get(hooks('?limit=100'))).body.data.map((item: { id: string }) => item.id)).not.toContain(
      theirs.id,
    );
    const crossed = await api.get(`/v2/accounts/${other.accountId}/webhooks/${theirs.id}`);
    expect(crossed.status).toBe(401);
    expect((await other.get(other.account(`/webhooks/${theirs.id}`))).body).toMatchObject({ name: 'Theirs' });
  });

  test.describe('the SSRF guard (no ALLOW_PRIVATE_NETWORKS on this server)', () => {
    const privateUrls: [string, string, RegExp][] = [
      ['loopback', 'https://127.0.0.1/hook', /127\.0\.0\.1 is not a public address/],
      ['loopback in decimal', 'https://2130706433/hook', /127\.0\.0\.1 is not a public address/],
      [
        'loopback in hex',
        'https://0x7f000001/hook',
        /127\.0\.0\.1 is not a public address.*ALLOW_PRIVATE_NETWORKS=true/,
      ],
      [
        'loopback over http',
        'http://127.0.0.1:8080/hook',
        /must be an https:\/\/ URL \(http:\/\/ is accepted only with ALLOW_PRIVATE_NETWORKS=true\)/,
      ],
      ['IPv6 loopback', 'https://[::1]/hook', /::1 is not a public address/],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', /is not a public address/],
      ['localhost', 'https://localhost:8443/hook', /localhost is this machine/],
      ['a private network', 'https://10.20.30.40/hook', /10\.20\.30\.40 is not a public address/],
      ['a private network (192.168)', 'https://192.168.1.1/hook', /is not a public address/],
      [
        'link-local, cloud metadata',
        'https://169.254.169.254/latest/meta-data',
        /169\.254\.169\.254 is not a public address/,
      ],
      ['CGNAT', 'https://100.64.0.1/hook', /100\.64\.0\.1 is not a public address/],
      ['IPv6 unique-local', 'https://[fd00::1]/hook', /is not a public address/],
    ];
    for (const [name, url, message] of privateUrls) {
      test(`POST /webhooks - a URL to ${name} is 400 naming the problem`, async () => {
        const response = await create({ name: 'ssrf', url, scope: 'global' });
        expect(response.status).toBe(400);
        expect(response.body.message).toMatch(/^url: /);
        expect(response.body.message).toMatch(message);
      });
    }

    test('a name that resolves to a private address is refused at create and update', async () => {
      const host = `internal-${stamp}.example.com`;
      await new DnsControl().setA(host, '10.0.0.5');
      const refused = await create({ name: 'ssrf', url: `https://${host}/hook`, scope: 'global' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        `url: ${host} resolves to 10.0.0.5, not a public address: Mailstead does not call loopback, private, link-local, CGNAT or cloud metadata addresses (a server run with ALLOW_PRIVATE_NETWORKS=true does, for labs and tests)`,
      );
      const created = (await create({ name: 'fine', url: publicUrl(), scope: 'global' })).body;
      const update = await api.put(hooks(`/${created.id}`), { url: `https://${host}/hook` });
      expect(update.status).toBe(400);
      expect(update.body.message).toMatch(/resolves to 10\.0\.0\.5/);
      expect((await api.put(hooks(`/${created.id}`), { url: 'https://[::1]:8443/x' })).status).toBe(400);
    });

    test('DNS rebinding: a name that pointed nowhere when saved and at loopback when called is refused at connect time', async () => {
      const host = `rebind-${stamp}.example.com`;
      const created = await create({
        name: 'rebinding',
        url: `https://${host}/hook`,
        scope: 'global',
        on_delivered: true,
      });
      expect(created.status).toBe(201);
      await new DnsControl().setA(host, '127.0.0.1');
      const triggered = await api.post(hooks(`/${created.body.id}/trigger`), { events: ['message.delivered'] });
      expect(triggered.status).toBe(200);
      expect(triggered.body.data[0]).toMatchObject({
        status: 'failed',
        response_status: null,
        error: `${host} resolves only to addresses that are not public (127.0.0.1)`,
      });
    });
  });
});
