import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { fetch as undiciFetch } from 'undici';
import { parse } from 'yaml';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { contractFile } from '../support/contract';
import { DnsControl } from '../support/dns-server';
import { TestMx } from '../support/mx-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import { freePort, startServer, tempDataDir, type ServerHandle } from '../support/server';
import { newAccount } from '../support/shared';
import { WebhookReceiver, hasValidSignature, type ReceivedHook } from '../support/webhook-receiver';

/**
 * The webhooks resource (`/v2/accounts/{id}/webhooks`) and the events it delivers. The first part runs
 * on the shared server, which has no ALLOW_PRIVATE_NETWORKS: CRUD, bad input, scopes, tenancy,
 * idempotency and the SSRF guard. The second part runs on a server of its own that may call loopback,
 * with an HTTPS receiver it trusts (NODE_EXTRA_CA_CERTS) and fast retries: a real send's events,
 * signed and checked with the `standardwebhooks` package, a retry after a 500, the automatic disable.
 */
const stamp = Date.now().toString(36);
let counter = 0;
const publicUrl = (label = 'hook') => `https://hooks-${stamp}.example.com/${label}-${counter++}`;

const FLAGS = ['on_reception', 'on_delivered', 'on_transient_error', 'on_failed', 'on_bounced', 'on_suppressed', 'on_opened', 'on_clicked', 'on_suppression_created', 'on_dns_error'] as const;
const allFlags = (value: boolean) => Object.fromEntries(FLAGS.map((flag) => [flag, value]));

test.describe('on the shared server', () => {
  let api: ApiClient;
  let domainA: string;
  let domainB: string;

  test.beforeAll(async () => {
    ({ api } = await newAccount('Webhooks'));
    domainA = `wh-a-${stamp}.example.com`;
    domainB = `wh-b-${stamp}.example.com`;
    for (const domain of [domainA, domainB]) expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  });

  const hooks = (suffix = '') => api.account(`/webhooks${suffix}`);
  const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) => client.post(client.account('/webhooks'), body, { headers });

  /** A client with a new key of this account holding `scopes`. */
  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const created = await api.post(api.account('/api-keys'), { label: `holder of ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api.with(created.body.secret_key);
  }

  test('POST /webhooks - 201 with every field, the secret once; GET and list never show it', async () => {
    const url = publicUrl('every-field');
    const body = { name: 'Every field', url, scope: 'scoped', domains: [domainB.toUpperCase(), `${domainA}.`], enabled: false, ...allFlags(true), on_dns_error: false };
    const created = await create(body);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    const webhook = created.body;
    expect(webhook).toEqual({
      object: 'webhook',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      name: 'Every field',
      url,
      enabled: false,
      ...allFlags(true),
      on_dns_error: false,
      scope: 'scoped',
      domains: [domainA, domainB].sort(),
      success_count: 0,
      error_count: 0,
      errors_since_last_success: 0,
      last_request_at: null,
      disabled_reason: null,
      disabled_at: null,
      secret: expect.stringMatching(/^aha-whsec-[A-Za-z0-9]{64}$/),
    });
    const { secret, ...withoutSecret } = webhook;
    const fetched = await api.get(hooks(`/${webhook.id}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(withoutSecret);
    expect(fetched.text).not.toContain(secret);
    const listed = await api.get(hooks('?limit=100'));
    expect(listed.body.data.find((item: { id: string }) => item.id === webhook.id)).toEqual(withoutSecret);
    expect(listed.text).not.toContain(secret);
    const updated = await api.put(hooks(`/${webhook.id}`), { name: 'Renamed' });
    expect(updated.text).not.toContain(secret);
  });

  test('POST /webhooks - the defaults: enabled, every flag off; a global webhook ignores domains and answers []', async () => {
    const created = await create({ name: 'Defaults', url: publicUrl(), scope: 'global', domains: [domainA] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ enabled: true, ...allFlags(false), scope: 'global', domains: [] });
  });

  test('the AhaSend CLI way: every flag explicit, "scope": "" is global, a random Idempotency-Key on every POST, paging with cursor=', async () => {
    const headers = { 'Idempotency-Key': randomUUID(), 'User-Agent': 'ahasend-cli/1.0.0' };
    const created = await create({ name: 'From the CLI', url: publicUrl('cli'), scope: '', ...allFlags(false), on_delivered: true, on_bounced: true }, api, headers);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scope: 'global', domains: [], on_delivered: true, on_bounced: true, on_opened: false });
    const second = await create({ name: 'From the CLI 2', url: publicUrl('cli'), scope: '', ...allFlags(true) }, api, { 'Idempotency-Key': randomUUID() });
    expect(second.status).toBe(201);

    // `webhooks list --limit 1`, then the next page with the legacy cursor parameter.
    const first = await api.get(hooks('?limit=1&cursor='));
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.pagination.has_more).toBe(true);
    const next = await api.get(hooks(`?limit=1&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`));
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
    // Newest first.
    expect(first.body.data[0].id).toBe(second.body.id);

    // `webhooks update --disable --events delivered`: only what is given changes.
    const updated = await api.put(hooks(`/${created.body.id}`), { enabled: false, ...allFlags(false), on_delivered: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'From the CLI', enabled: false, on_delivered: true, on_bounced: false, scope: 'global' });
    // `webhooks trigger` sends a random Idempotency-Key too; it is ignored there.
    const triggered = await api.post(hooks(`/${second.body.id}/trigger`), { events: ['message.delivered'] }, { headers: { 'Idempotency-Key': randomUUID() } });
    expect(triggered.status).toBe(200);
    expect(triggered.body.data).toEqual([{ id: expect.any(String), event_type: 'message.delivered', status: 'failed', response_status: null, error: expect.stringMatching(/no address records/) }]);
  });

  test('PUT /webhooks/{id} - partial: null and omitted fields stay; scope and domain transitions as the contract has them', async () => {
    const url = publicUrl('put');
    const created = (await create({ name: 'Partial', url, scope: 'global', on_opened: true })).body;
    const nothing = await api.put(hooks(`/${created.id}`), { name: null, url: null, scope: null, domains: null, enabled: null, on_opened: null });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ name: 'Partial', url, scope: 'global', domains: [], enabled: true, on_opened: true });

    const toScopedWithout = await api.put(hooks(`/${created.id}`), { scope: 'scoped' });
    expect(toScopedWithout.status).toBe(400);
    expect(toScopedWithout.body.message).toMatch(/domains/);
    const toScopedEmpty = await api.put(hooks(`/${created.id}`), { scope: 'scoped', domains: [] });
    expect(toScopedEmpty.status).toBe(400);

    const scoped = await api.put(hooks(`/${created.id}`), { scope: 'scoped', domains: [domainA], on_clicked: true, url: publicUrl('moved'), name: 'Moved' });
    expect(scoped.status).toBe(200);
    expect(scoped.body).toMatchObject({ scope: 'scoped', domains: [domainA], on_clicked: true, on_opened: true, name: 'Moved' });
    expect(Date.parse(scoped.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const kept = await api.put(hooks(`/${created.id}`), { on_failed: true });
    expect(kept.body.domains).toEqual([domainA]);
    const replaced = await api.put(hooks(`/${created.id}`), { domains: [domainB] });
    expect(replaced.body.domains).toEqual([domainB]);
    const unknownDomain = await api.put(hooks(`/${created.id}`), { domains: [`nope-${stamp}.example.com`] });
    expect(unknownDomain.status).toBe(400);
    expect(unknownDomain.body.message).toMatch(/is not a domain of this account/);

    const global = await api.put(hooks(`/${created.id}`), { scope: 'global' });
    expect(global.body).toMatchObject({ scope: 'global', domains: [] });
    // An empty scope (the CLI's "not given") changes nothing.
    expect((await api.put(hooks(`/${created.id}`), { scope: '' })).body.scope).toBe('global');
    expect((await api.get(hooks(`/${created.id}`))).body.domains).toEqual([]);
  });

  test('DELETE /webhooks/{id} - 200 with a message, then 404 everywhere', async () => {
    const created = (await create({ name: 'Doomed', url: publicUrl(), scope: 'global' })).body;
    const deleted = await api.delete(hooks(`/${created.id}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: expect.stringContaining(created.id) });
    for (const response of [
      await api.get(hooks(`/${created.id}`)),
      await api.put(hooks(`/${created.id}`), { name: 'x' }),
      await api.delete(hooks(`/${created.id}`)),
      await api.post(hooks(`/${created.id}/trigger`), { events: ['message.delivered'] }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'webhook not found' });
    }
  });

  test('GET /webhooks - boolean filters; an empty value is absent; a non-boolean value is 400 naming the filter', async () => {
    const { api: own } = await newAccount('Webhook filters');
    const make = (body: Record<string, unknown>) => own.post(own.account('/webhooks'), { url: publicUrl('filter'), scope: 'global', ...body });
    const on = (await make({ name: 'on', on_opened: true })).body;
    const off = (await make({ name: 'off', enabled: false, on_clicked: true })).body;
    const ids = async (query: string) => {
      const response = await own.get(own.account(`/webhooks?${query}`));
      expect(response.status).toBe(200);
      return response.body.data.map((item: { id: string }) => item.id);
    };
    expect(await ids('enabled=true')).toEqual([on.id]);
    expect(await ids('enabled=false')).toEqual([off.id]);
    expect(await ids('on_opened=true')).toEqual([on.id]);
    expect(await ids('on_clicked=true&enabled=false')).toEqual([off.id]);
    expect(await ids('on_opened=false&on_clicked=false')).toEqual([]);
    expect(await ids('enabled=&on_opened=&cursor=')).toEqual([off.id, on.id]);
    for (const query of ['enabled=yes', 'enabled=1', 'on_delivered=TRUE', 'on_dns_error=maybe', 'limit=0', 'limit=101']) {
      const response = await own.get(own.account(`/webhooks?${query}`));
      expect(response.status, query).toBe(400);
      expect(response.body.message).toContain(query.split('=')[0]);
    }
  });

  const badBodies: [string, Record<string, unknown>, RegExp][] = [
    ['no name', { url: 'https://example.com/h', scope: 'global' }, /name/],
    ['an empty name', { name: '  ', url: 'https://example.com/h', scope: 'global' }, /name/],
    ['a name of 256 characters', { name: 'x'.repeat(256), url: 'https://example.com/h', scope: 'global' }, /name.*255/],
    ['a numeric name', { name: 7, url: 'https://example.com/h', scope: 'global' }, /name/],
    ['no url', { name: 'n', scope: 'global' }, /url/],
    ['a url that is not one', { name: 'n', url: 'not a url', scope: 'global' }, /url/],
    ['an ftp url', { name: 'n', url: 'ftp://example.com/h', scope: 'global' }, /url.*https/],
    ['an http url (no ALLOW_PRIVATE_NETWORKS)', { name: 'n', url: 'http://example.com/h', scope: 'global' }, /url.*https/],
    ['a url of 2,100 characters', { name: 'n', url: `https://example.com/${'a'.repeat(2100)}`, scope: 'global' }, /url.*2048/],
    ['no scope', { name: 'n', url: 'https://example.com/h' }, /scope/],
    ['an unknown scope', { name: 'n', url: 'https://example.com/h', scope: 'everything' }, /scope/],
    ['scoped without domains', { name: 'n', url: 'https://example.com/h', scope: 'scoped' }, /domains/],
    ['scoped with no domain', { name: 'n', url: 'https://example.com/h', scope: 'scoped', domains: [] }, /domains/],
    ['domains that are not a list', { name: 'n', url: 'https://example.com/h', scope: 'scoped', domains: 'a.example.com' }, /domains/],
    ['a domain of another account', { name: 'n', url: 'https://example.com/h', scope: 'scoped', domains: ['example.com'] }, /domains: example\.com is not a domain of this account/],
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
    const broken = await api.request('POST', hooks(), { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/invalid request body/);
    const list = await api.request('PUT', hooks(`/${created.id}`), { rawBody: '[1,2]', headers: { 'content-type': 'application/json' } });
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
    for (const response of [await api.get(hooks(`/${unknown}`)), await api.put(hooks(`/${unknown}`), { name: 'x' }), await api.delete(hooks(`/${unknown}`))]) {
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

    const ofDomainA = await keyWith([`webhooks:read:{${domainA}}`, `webhooks:write:{${domainA}}`, `webhooks:delete:{${domainA}}`]);
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
    expect((await create({ name: 'x', url: publicUrl(), scope: 'scoped', domains: [domainA, domainB] }, ofDomainA)).status).toBe(403);
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
    const theirs = (await other.post(other.account('/webhooks'), { name: 'Theirs', url: publicUrl(), scope: 'global' })).body;
    for (const response of [
      await api.get(hooks(`/${theirs.id}`)),
      await api.put(hooks(`/${theirs.id}`), { name: 'Mine now' }),
      await api.delete(hooks(`/${theirs.id}`)),
      await api.post(hooks(`/${theirs.id}/trigger`), { events: ['message.delivered'] }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'webhook not found' });
    }
    expect((await api.get(hooks('?limit=100'))).body.data.map((item: { id: string }) => item.id)).not.toContain(theirs.id);
    const crossed = await api.get(`/v2/accounts/${other.accountId}/webhooks/${theirs.id}`);
    expect(crossed.status).toBe(401);
    expect((await other.get(other.account(`/webhooks/${theirs.id}`))).body).toMatchObject({ name: 'Theirs' });
  });

  test('idempotency: parallel creates with one Idempotency-Key make one webhook, replayed with the same secret; another body is 422', async () => {
    const { api: own } = await newAccount('Webhook idempotency');
    const key = `wh-${randomUUID()}`;
    const body = { name: 'Once', url: publicUrl('once'), scope: 'global', on_delivered: true };
    const responses = await Promise.all(Array.from({ length: 6 }, () => own.post(own.account('/webhooks'), body, { headers: { 'Idempotency-Key': key } })));
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.headers.get('idempotent-replayed')).toBe('false');
    }
    const replay = await own.post(own.account('/webhooks'), body, { headers: { 'Idempotency-Key': key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    for (const response of created) expect(response.body).toEqual(replay.body);
    const listed = (await own.get(own.account('/webhooks'))).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].id).toBe(replay.body.id);
    const mismatch = await own.post(own.account('/webhooks'), { ...body, name: 'Twice' }, { headers: { 'Idempotency-Key': key } });
    expect(mismatch.status).toBe(422);
  });

  test.describe('the SSRF guard (no ALLOW_PRIVATE_NETWORKS on this server)', () => {
    const privateUrls: [string, string, RegExp][] = [
      ['loopback', 'https://127.0.0.1/hook', /127\.0\.0\.1 is not a public address/],
      ['loopback in decimal', 'https://2130706433/hook', /127\.0\.0\.1 is not a public address/],
      ['IPv6 loopback', 'https://[::1]/hook', /::1 is not a public address/],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', /is not a public address/],
      ['localhost', 'https://localhost:8443/hook', /localhost is this machine/],
      ['a private network', 'https://10.20.30.40/hook', /10\.20\.30\.40 is not a public address/],
      ['a private network (192.168)', 'https://192.168.1.1/hook', /is not a public address/],
      ['link-local, cloud metadata', 'https://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is not a public address/],
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
      expect(refused.body.message).toBe(`url: ${host} resolves to 10.0.0.5, not a public address: webhooks may not call loopback, private, link-local, CGNAT or cloud metadata addresses`);
      const created = (await create({ name: 'fine', url: publicUrl(), scope: 'global' })).body;
      const update = await api.put(hooks(`/${created.id}`), { url: `https://${host}/hook` });
      expect(update.status).toBe(400);
      expect(update.body.message).toMatch(/resolves to 10\.0\.0\.5/);
      expect((await api.put(hooks(`/${created.id}`), { url: 'https://[::1]:8443/x' })).status).toBe(400);
    });

    test('DNS rebinding: a name that pointed nowhere when saved and at loopback when called is refused at connect time', async () => {
      const host = `rebind-${stamp}.example.com`;
      const created = await create({ name: 'rebinding', url: `https://${host}/hook`, scope: 'global', on_delivered: true });
      expect(created.status).toBe(201);
      await new DnsControl().setA(host, '127.0.0.1');
      const triggered = await api.post(hooks(`/${created.body.id}/trigger`), { events: ['message.delivered'] });
      expect(triggered.status).toBe(200);
      expect(triggered.body.data[0]).toMatchObject({ status: 'failed', response_status: null, error: `${host} resolves only to addresses that are not public (127.0.0.1)` });
    });
  });
});

// ---------------------------------------------------------------------------------------------------

/** The payload schemas of ahasend-webhooks.yaml, by event type; each payload must also carry no field the document does not name. */
const webhookContract = (() => {
  const file = contractFile ? path.join(path.dirname(contractFile), 'ahasend-webhooks.yaml') : null;
  const doc = file ? (parse(readFileSync(file, 'utf8')) as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>; components: { schemas: Record<string, any> } }) : null;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  if (doc) ajv.addSchema(doc, 'webhooks');
  const resolve = (ref: string): any => doc!.components.schemas[ref.split('/').at(-1)!];
  /** Property names a schema allows (allOf followed). */
  const names = (schema: any): Set<string> => {
    const found = new Set<string>(Object.keys(schema.properties ?? {}));
    for (const part of schema.allOf ?? []) for (const name of names(part.$ref ? resolve(part.$ref) : part)) found.add(name);
    return found;
  };
  return (payload: any): string[] => {
    if (!doc) return [];
    const ref = doc.webhooks[payload.type]?.post.requestBody.content['application/json'].schema.$ref;
    if (!ref) return [`${payload.type} is not a documented event type`];
    const validate = ajv.getSchema(`webhooks${ref}`) ?? ajv.compile({ $ref: `webhooks${ref}` });
    const problems = validate(payload) ? [] : (validate.errors ?? []).map((error) => `${payload.type}: ${error.instancePath} ${error.message}`);
    const schema = resolve(ref);
    const top = names(schema);
    // The documented top level, plus webhook_id, which the Go SDK's document requires on every event.
    top.add('webhook_id');
    problems.push(...Object.keys(payload).filter((key) => !top.has(key)).map((key) => `${payload.type}: undocumented field ${key}`));
    const dataSchema = [...(schema.allOf ?? [schema])].map((part: any) => (part.$ref ? resolve(part.$ref) : part)).find((part: any) => part.properties?.data)?.properties.data;
    if (dataSchema?.$ref) {
      const data = names(resolve(dataSchema.$ref));
      problems.push(...Object.keys(payload.data ?? {}).filter((key) => !data.has(key)).map((key) => `${payload.type}: undocumented data field ${key}`));
    }
    return problems;
  };
})();

test.describe('delivering events (a server that may call loopback, an HTTPS receiver)', () => {
  const hostname = `receiver-${stamp}.mailstead.test`;
  let receiver: WebhookReceiver;
  let server: ServerHandle;
  let mx: TestMx;
  let api: ApiClient;
  let accountId: string;
  let sender: string;
  let httpPort: number;
  let dropDatabase: (() => Promise<void>) | null = null;
  const rcptDomain = `wh-rcpt-${stamp}.example`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const tls = await WebhookReceiver.certificate(hostname);
    receiver = await new WebhookReceiver({ tls }).start();
    await new DnsControl().setA(hostname, '127.0.0.1');
    mx = await new TestMx().start();
    httpPort = await freePort();
    const dataDir = tempDataDir('ms-wh-');
    const caFile = path.join(dataDir, 'receiver-ca.pem');
    writeFileSync(caFile, tls.cert);
    const env: Record<string, string> = {
      ALLOW_PRIVATE_NETWORKS: 'true',
      // The receiver's self-signed certificate, trusted as a customer's real one would be.
      NODE_EXTRA_CA_CERTS: caFile,
      SMTP_DELIVERY_PORT: String(mx.port),
      HTTP_PORT: String(httpPort),
      DELIVERY_POLL_MS: '100',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_DISABLE_AFTER_FAILURES: '3',
      WEBHOOK_DISABLE_AFTER_SECONDS: '0',
    };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_webhooks');
      dropDatabase = scratch.drop;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'webhooks-secret-webhooks-secret-000000001' });
    }
    server = await startServer({ env, dataDir });
    const account = await createAccountWithKey(server.env, 'Webhook delivery');
    accountId = account.accountId;
    api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    sender = `wh-send-${stamp}.example.com`;
    await verifiedDomain(api, sender);
    await new DnsControl().setA(`t.${sender}`, '127.0.0.1');
    await api.post(api.account(`/domains/${sender}/check-dns`));
    await routeDomainToLoopback(rcptDomain);
  });

  test.afterAll(async () => {
    await server?.stop();
    await receiver?.stop();
    await mx?.stop();
    await dropDatabase?.();
  });

  const hooks = (suffix = '') => api.account(`/webhooks${suffix}`);
  const sendSandbox = async (label: string) => {
    const sent = await api.post(api.account('/messages'), { from: { email: `news@${sender}` }, recipients: [{ email: `${label}@${rcptDomain}` }], subject: label, text_content: 'x', sandbox: true });
    expect(sent.status).toBe(202);
    return sent.body.data[0].id as string;
  };
  const waitForHooks = async (receiverPath: string, isDone: (hooks: ReceivedHook[]) => boolean, timeout = 30_000) => {
    await expect.poll(() => isDone(receiver.to(receiverPath)), { timeout, message: `webhook requests to ${receiverPath}` }).toBe(true);
    return receiver.to(receiverPath);
  };
  /** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
  const visit = (url: string) => {
    const parsed = new URL(url);
    return undiciFetch(`${parsed.protocol}//127.0.0.1:${parsed.port}${parsed.pathname}`, { headers: { host: parsed.host, 'user-agent': 'Mozilla/5.0 (Macintosh) Thunderbird/128.0' }, redirect: 'manual' });
  };

  test('a real send: reception, delivered, bounced, opened, clicked and suppression.created arrive signed over HTTPS, as ahasend-webhooks.yaml describes', async () => {
    test.setTimeout(90_000);
    const receiverPath = `/events-${stamp}`;
    const created = await api.post(hooks(), { name: 'Everything', url: receiver.url(receiverPath), scope: 'scoped', domains: [sender], ...allFlags(true) });
    expect(created.status).toBe(201);
    const { id: webhookId, secret } = created.body;
    const reader = `reader@${rcptDomain}`;
    const gone = `gone@${rcptDomain}`;
    mx.script(gone, { code: 550, message: '5.1.1 no such user' });
    const sent = await api.post(api.account('/messages'), {
      from: { email: `news@${sender}` },
      recipients: [{ email: reader }, { email: gone }],
      subject: 'Webhook news',
      html_content: '<html><body><p><a href="https://shop.example/sale">Sale</a></p></body></html>',
      tracking: { open: true, click: true },
    });
    expect(sent.status).toBe(202);
    const [readerMessage, goneMessage] = sent.body.data.map((item: { id: string }) => item.id);
    const delivered = await waitForStatus(api, readerMessage, 'Delivered');
    await waitForStatus(api, goneMessage, 'Bounced');
    const html = String(mx.for(reader)[0].parsed.html);
    const openUrl = html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)?.[1];
    const clickUrl = html.match(/href="([^"]+\/t\/c\/[^"]+)"/)?.[1];
    expect((await visit(openUrl!)).status).toBe(200);
    expect((await visit(clickUrl!)).status).toBe(302);

    const expected = ['message.reception', 'message.reception', 'message.delivered', 'message.bounced', 'message.opened', 'message.clicked', 'suppression.created'];
    const received = await waitForHooks(receiverPath, (list) => expected.every((type) => list.filter((hook) => hook.json?.type === type).length >= expected.filter((t) => t === type).length));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const types = receiver.to(receiverPath).map((hook) => hook.json.type).sort();
    expect(types).toEqual([...expected].sort());

    // An independent verifier: the standardwebhooks package, given the secret's raw bytes.
    const verifier = new Webhook(secret, { format: 'raw' });
    for (const hook of received) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(120);
      expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verifier.verify(hook.body, hook.headers as Record<string, string>)).toEqual(hook.json);
      expect(hasValidSignature(hook, secret)).toBe(true);
      expect(() => new Webhook(Buffer.from('another secret').toString('base64')).verify(hook.body, hook.headers as Record<string, string>)).toThrow();
      expect(webhookContract(hook.json)).toEqual([]);
      expect(hook.json.webhook_id).toBe(webhookId);
      expect(hook.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    expect(new Set(received.map((hook) => hook.headers['webhook-id'])).size).toBe(received.length);

    const byType = (type: string) => received.filter((hook) => hook.json.type === type).map((hook) => hook.json.data);
    const message = { account_id: accountId, from: `news@${sender}`, subject: 'Webhook news', is_bot: false };
    expect(byType('message.delivered')).toEqual([{ ...message, event: 'on_delivered', recipient: reader, message_id_header: delivered.message_id, id: delivered.id }]);
    expect(byType('message.bounced')).toEqual([{ ...message, event: 'on_bounced', recipient: gone, message_id_header: expect.stringMatching(/^<.+@.+>$/), id: goneMessage.replace(/^<|@.*$/g, '') }]);
    expect(byType('message.reception').map((data) => data.recipient).sort()).toEqual([gone, reader]);
    expect(byType('message.opened')).toEqual([{ ...message, event: 'on_opened', recipient: reader, message_id_header: delivered.message_id, id: delivered.id, user_agent: expect.stringContaining('Thunderbird'), ip: '127.0.0.1' }]);
    expect(byType('message.clicked')).toEqual([
      { ...message, event: 'on_clicked', recipient: reader, message_id_header: delivered.message_id, id: delivered.id, user_agent: expect.stringContaining('Thunderbird'), ip: '127.0.0.1', url: 'https://shop.example/sale' },
    ]);
    expect(byType('suppression.created')).toEqual([{ account_id: accountId, recipient: gone, created_at: expect.any(String), expires_at: expect.any(String), reason: expect.any(String), sending_domain: sender }]);

    await expect.poll(async () => (await api.get(hooks(`/${webhookId}`))).body.success_count).toBe(expected.length);
    const after = (await api.get(hooks(`/${webhookId}`))).body;
    expect(after).toMatchObject({ error_count: 0, errors_since_last_success: 0, last_request_at: expect.any(String) });
  });

  test('a 500 is retried with the same webhook-id and body, and the 2xx that follows counts as the success', async () => {
    const receiverPath = `/retry-${stamp}`;
    receiver.answer(receiverPath, { status: 500, body: 'busy' }, { status: 204, body: '' });
    const created = (await api.post(hooks(), { name: 'Retry', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })).body;
    await sendSandbox('retry');
    const [first, second] = await waitForHooks(receiverPath, (list) => list.length >= 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.at - first.at).toBeGreaterThanOrEqual(800);
    const verifier = new Webhook(created.secret, { format: 'raw' });
    expect(verifier.verify(second.body, second.headers as Record<string, string>)).toMatchObject({ type: 'message.delivered' });
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.success_count).toBe(1);
    expect((await api.get(hooks(`/${created.id}`))).body).toMatchObject({ error_count: 1, errors_since_last_success: 0, enabled: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.to(receiverPath)).toHaveLength(2);
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const receiverPath = `/moved-${stamp}`;
    receiver.answer(receiverPath, { status: 200, body: 'ok' });
    const created = (await api.post(hooks(), { name: 'Redirected', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })).body;
    const hop = `/hop-${stamp}`;
    // The receiver answers 307 from this path; the server must not go on to the other one.
    receiver.answer(hop, { status: 307, body: 'moved' });
    await api.put(hooks(`/${created.id}`), { url: receiver.url(hop) });
    const triggered = await api.post(hooks(`/${created.id}/trigger`), { events: ['message.delivered'] });
    expect(triggered.body.data[0]).toMatchObject({ status: 'failed', response_status: 307, error: expect.stringMatching(/^redirect not followed/) });
    expect(receiver.to(receiverPath)).toHaveLength(0);
  });

  test('a run of failures disables the webhook with why and when; nothing more is sent; re-enabling resets the run', async () => {
    test.setTimeout(90_000);
    const receiverPath = `/down-${stamp}`;
    receiver.answer(receiverPath, { status: 503, body: 'down for maintenance' });
    const created = (await api.post(hooks(), { name: 'Down', url: receiver.url(receiverPath), scope: 'global', on_delivered: true })).body;
    // One delivery: its first three attempts (of four on this schedule) fail, and the third disables the webhook.
    await sendSandbox('down-1');
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.enabled, { timeout: 30_000 }).toBe(false);
    const disabled = (await api.get(hooks(`/${created.id}`))).body;
    expect(disabled).toMatchObject({
      enabled: false,
      errors_since_last_success: 3,
      success_count: 0,
      disabled_reason: expect.stringMatching(/^disabled after 3 failed deliveries in a row since .*the receiver answered 503$/),
      disabled_at: expect.any(String),
    });
    const sentBefore = receiver.to(receiverPath).length;
    expect(sentBefore).toBe(3);
    await sendSandbox('down-2');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.to(receiverPath)).toHaveLength(sentBefore);
    // A disabled webhook is listed as such.
    expect((await api.get(hooks('?enabled=false'))).body.data.map((item: { id: string }) => item.id)).toContain(created.id);

    receiver.answer(receiverPath, { status: 200, body: 'back' });
    const enabled = await api.put(hooks(`/${created.id}`), { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, errors_since_last_success: 0, disabled_reason: null, disabled_at: null, error_count: 3 });
    await sendSandbox('down-3');
    await expect.poll(async () => (await api.get(hooks(`/${created.id}`))).body.success_count, { timeout: 20_000 }).toBe(1);
  });

  test('POST /webhooks/{id}/trigger (Mailstead extension the CLI uses) - signed samples of every chosen type, answered with how each went', async () => {
    const receiverPath = `/samples-${stamp}`;
    const created = (await api.post(hooks(), { name: 'Samples', url: receiver.url(receiverPath), scope: 'global' })).body;
    const all = ['message.reception', 'message.delivered', 'message.transient_error', 'message.failed', 'message.bounced', 'message.suppressed', 'message.opened', 'message.clicked', 'suppression.created', 'domain.dns_error'];
    const triggered = await api.post(hooks(`/${created.id}/trigger`), { events: all });
    expect(triggered.status).toBe(200);
    expect(triggered.body.message).toBe('sent 10 sample events: 10 delivered, 0 failed');
    expect(triggered.body.data.map((item: { event_type: string; status: string; response_status: number }) => [item.event_type, item.status, item.response_status])).toEqual(all.map((type) => [type, 'delivered', 200]));
    const verifier = new Webhook(created.secret, { format: 'raw' });
    const received = receiver.to(receiverPath);
    expect(received.map((hook) => hook.json.type).sort()).toEqual([...all].sort());
    for (const hook of received) {
      expect(verifier.verify(hook.body, hook.headers as Record<string, string>)).toEqual(hook.json);
      expect(webhookContract(hook.json)).toEqual([]);
    }
    // Samples are not counted against the webhook.
    expect((await api.get(hooks(`/${created.id}`))).body).toMatchObject({ success_count: 0, error_count: 0 });
    const openapi = await api.get('/v2/openapi.json', { checkContract: false });
    expect(openapi.body.paths['/v2/accounts/{account_id}/webhooks/{webhook_id}/trigger'].post['x-mailstead-extension']).toBe(true);
  });
});
