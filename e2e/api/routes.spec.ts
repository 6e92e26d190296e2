import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { verifiedDomain } from '../support/sending';
import { newAccount } from '../support/shared';
import { WebhookReceiver, hasValidSignature } from '../support/webhook-receiver';

/**
 * The routes resource (`/v2/accounts/{id}/routes`) on the shared server, which has no
 * ALLOW_PRIVATE_NETWORKS: CRUD as the contract and the AhaSend CLI have it, bad input, scopes (the
 * domain of the recipient decides; a domain-scoped key lists with ?domain=), tenancy, idempotency,
 * the SSRF guard, the MX record of a domain. "trigger" runs on a server of its own that may call a
 * loopback receiver. Mail arriving at the MX is in e2e/smtp/mx.spec.ts.
 */
const stamp = Date.now().toString(36);
let counter = 0;
const publicUrl = (label = 'route') => `https://routes-${stamp}.example.com/${label}-${counter++}`;

test.describe('on the shared server', () => {
  let api: ApiClient;
  let domainA: string;
  let domainB: string;

  test.beforeAll(async () => {
    ({ api } = await newAccount('Routes'));
    domainA = `rt-a-${stamp}.example.com`;
    domainB = `rt-b-${stamp}.example.com`;
    for (const domain of [domainA, domainB]) expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  });

  const routes = (suffix = '') => api.account(`/routes${suffix}`);
  const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) => client.post(client.account('/routes'), body, { headers });

  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const created = await api.post(api.account('/api-keys'), { label: `holder of ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api.with(created.body.secret_key);
  }

  test('POST /routes - 201 with every field, the secret once; GET, list and update never show it', async () => {
    const url = publicUrl('every-field');
    const body = { name: 'Every field', url, recipient: `Support@${domainA.toUpperCase()}`, attachments: true, headers: true, group_by_message_id: true, strip_replies: true, enabled: false };
    const created = await create(body);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    expect(created.body).toEqual({
      object: 'route',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      name: 'Every field',
      url,
      recipient: `support@${domainA}`,
      attachments: true,
      headers: true,
      group_by_message_id: true,
      strip_replies: true,
      enabled: false,
      success_count: 0,
      error_count: 0,
      errors_since_last_success: 0,
      last_request_at: null,
      disabled_reason: null,
      disabled_at: null,
      secret: expect.stringMatching(/^aha-whsec-[A-Za-z0-9]{64}$/),
    });
    const { secret, ...withoutSecret } = created.body;
    const fetched = await api.get(routes(`/${created.body.id}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(withoutSecret);
    const listed = await api.get(routes('?limit=100'));
    expect(listed.body.data.find((item: { id: string }) => item.id === created.body.id)).toEqual(withoutSecret);
    expect(listed.text).not.toContain(secret);
    const updated = await api.put(routes(`/${created.body.id}`), { name: 'Renamed' });
    expect(updated.text).not.toContain(secret);
  });

  test('POST /routes - the defaults: enabled, every option off', async () => {
    const created = await create({ name: 'Defaults', url: publicUrl(), recipient: `*@${domainA}` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ recipient: `*@${domainA}`, enabled: true, attachments: false, headers: false, group_by_message_id: false, strip_replies: false });
  });

  test('the AhaSend CLI way: every option explicit, enabled:false, recipient "" (no filter), a random Idempotency-Key, paging with cursor=', async () => {
    const headers = { 'Idempotency-Key': randomUUID(), 'User-Agent': 'ahasend-cli/1.0.0' };
    const cliBody = (name: string, recipient: string) => ({ name, url: publicUrl('cli'), recipient, attachments: false, headers: false, group_by_message_id: false, strip_replies: false, enabled: false });
    const first = await create(cliBody('From the CLI', ''), api, headers);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ recipient: '', enabled: false });
    const second = await create(cliBody('From the CLI 2', `support-*@${domainB}`), api, { 'Idempotency-Key': randomUUID() });
    expect(second.status).toBe(201);
    expect(second.body.recipient).toBe(`support-*@${domainB}`);

    const page = await api.get(routes('?limit=1&cursor='));
    expect(page.status).toBe(200);
    expect(page.body.data.map((item: { id: string }) => item.id)).toEqual([second.body.id]);
    expect(page.body.pagination.has_more).toBe(true);
    const next = await api.get(routes(`?limit=1&cursor=${encodeURIComponent(page.body.pagination.next_cursor)}`));
    expect(next.body.data.map((item: { id: string }) => item.id)).toEqual([first.body.id]);

    // `routes update --enabled --clear-recipient` and the `--domain` filter of a list.
    const cleared = await api.put(routes(`/${second.body.id}`), { enabled: true, recipient: '' });
    expect(cleared.body).toMatchObject({ enabled: true, recipient: '' });
    const ofB = await api.put(routes(`/${second.body.id}`), { recipient: `help@${domainB}` });
    expect(ofB.body.recipient).toBe(`help@${domainB}`);
    const filtered = await api.get(routes(`?domain=${domainB.toUpperCase()}&limit=100`));
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((item: { id: string }) => item.id)).toContain(second.body.id);
    expect(filtered.body.data.every((item: { recipient: string }) => item.recipient.endsWith(`@${domainB}`))).toBe(true);
    // `routes trigger` sends a random Idempotency-Key too; it is ignored there (this server cannot call the URL).
    const triggered = await api.post(routes(`/${second.body.id}/trigger`), {}, { headers: { 'Idempotency-Key': randomUUID() } });
    expect(triggered.status).toBe(200);
    expect(triggered.body.data).toEqual([{ id: expect.any(String), event_type: 'message.routing', status: 'failed', response_status: null, error: expect.stringMatching(/no address records/) }]);
  });

  test('PUT /routes/{id} - partial: null and omitted fields stay; every field can change', async () => {
    const url = publicUrl('put');
    const created = (await create({ name: 'Partial', url, recipient: `a@${domainA}`, headers: true })).body;
    const nothing = await api.put(routes(`/${created.id}`), { name: null, url: null, recipient: null, attachments: null, headers: null, group_by_message_id: null, strip_replies: null, enabled: null });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ name: 'Partial', url, recipient: `a@${domainA}`, headers: true, enabled: true });
    const moved = publicUrl('moved');
    const changed = await api.put(routes(`/${created.id}`), { name: 'Moved', url: moved, recipient: `b-*@${domainA}`, attachments: true, headers: false, group_by_message_id: true, strip_replies: true, enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Moved', url: moved, recipient: `b-*@${domainA}`, attachments: true, headers: false, group_by_message_id: true, strip_replies: true, enabled: false });
    expect(Date.parse(changed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect((await api.get(routes(`/${created.id}`))).body).toEqual(changed.body);
  });

  test('DELETE /routes/{id} - 200 with a message, then 404 everywhere', async () => {
    const created = (await create({ name: 'Doomed', url: publicUrl(), recipient: `x@${domainA}` })).body;
    const deleted = await api.delete(routes(`/${created.id}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: expect.stringContaining(created.id) });
    for (const response of [await api.get(routes(`/${created.id}`)), await api.put(routes(`/${created.id}`), { name: 'x' }), await api.delete(routes(`/${created.id}`)), await api.post(routes(`/${created.id}/trigger`), {})]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'route not found' });
    }
  });

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
    ['a domain of another account', () => ({ ...ok(), recipient: 'support@example.com' }), /recipient: example\.com is not a domain of this account/],
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
    const broken = await api.request('POST', routes(), { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/invalid request body/);
    const list = await api.request('PUT', routes(`/${created.id}`), { rawBody: '[1,2]', headers: { 'content-type': 'application/json' } });
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
    expect((await api.get(routes(`/${created.id}`))).body).toMatchObject({ name: 'Target', recipient: `t@${domainA}`, enabled: true });

    for (const response of [await api.get(routes('/not-a-uuid')), await api.put(routes('/not-a-uuid'), { name: 'x' }), await api.delete(routes('/not-a-uuid')), await api.post(routes('/not-a-uuid/trigger'), {})]) {
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/route_id/);
    }
    const unknown = randomUUID();
    for (const response of [await api.get(routes(`/${unknown}`)), await api.put(routes(`/${unknown}`), { name: 'x' }), await api.delete(routes(`/${unknown}`)), await api.post(routes(`/${unknown}/trigger`), {})]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'route not found' });
    }
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'after=not-a-cursor', 'domain=not_a_domain']) {
      const response = await api.get(routes(`?${query}`));
      expect(response.status, query).toBe(400);
    }
  });

  test('scopes: no route scope is 403 everywhere; read cannot write; a domain key works only with routes of its domain and lists only with ?domain=', async () => {
    const ofA = (await create({ name: 'Of A', url: publicUrl(), recipient: `a@${domainA}` })).body;
    const ofB = (await create({ name: 'Of B', url: publicUrl(), recipient: `b@${domainB}` })).body;
    const everywhere = (await create({ name: 'Everywhere', url: publicUrl(), recipient: '' })).body;

    const none = await keyWith(['domains:read', 'webhooks:read:all']);
    for (const response of [
      await none.get(routes()),
      await none.get(routes(`/${ofA.id}`)),
      await create({ name: 'x', url: publicUrl(), recipient: `x@${domainA}` }, none),
      await none.put(routes(`/${ofA.id}`), { name: 'x' }),
      await none.delete(routes(`/${ofA.id}`)),
      await none.post(routes(`/${ofA.id}/trigger`), {}),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: expect.stringMatching(/permission|scope/) });
    }

    const reader = await keyWith(['routes:read:all']);
    expect((await reader.get(routes(`/${ofA.id}`))).status).toBe(200);
    expect((await reader.get(routes('?limit=100'))).body.data.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([ofA.id, ofB.id, everywhere.id]));
    expect((await create({ name: 'x', url: publicUrl(), recipient: `x@${domainA}` }, reader)).status).toBe(403);
    expect((await reader.put(routes(`/${ofA.id}`), { name: 'x' })).status).toBe(403);
    expect((await reader.delete(routes(`/${ofA.id}`))).status).toBe(403);

    const ofDomainA = await keyWith([`routes:read:{${domainA}}`, `routes:write:{${domainA}}`, `routes:delete:{${domainA}}`]);
    // The contract: a domain-scoped key must pass ?domain= to list, and only one of its own.
    expect((await ofDomainA.get(routes())).status).toBe(403);
    expect((await ofDomainA.get(routes(`?domain=${domainB}`))).status).toBe(403);
    const visible = await ofDomainA.get(routes(`?domain=${domainA}&limit=100`));
    expect(visible.status).toBe(200);
    expect(visible.body.data.map((item: { id: string }) => item.id)).toContain(ofA.id);
    expect(visible.body.data.map((item: { id: string }) => item.id)).not.toContain(ofB.id);
    expect((await ofDomainA.get(routes(`/${ofA.id}`))).status).toBe(200);
    expect((await ofDomainA.get(routes(`/${ofB.id}`))).status).toBe(403);
    // A route without a domain covers every domain: only :all reaches it.
    expect((await ofDomainA.get(routes(`/${everywhere.id}`))).status).toBe(403);
    expect((await create({ name: 'x', url: publicUrl(), recipient: '' }, ofDomainA)).status).toBe(403);
    expect((await create({ name: 'x', url: publicUrl(), recipient: 'support' }, ofDomainA)).status).toBe(403);
    expect((await create({ name: 'x', url: publicUrl(), recipient: `x@${domainB}` }, ofDomainA)).status).toBe(403);
    const mine = await create({ name: 'Mine', url: publicUrl(), recipient: `*@${domainA}` }, ofDomainA);
    expect(mine.status).toBe(201);
    // On update both the old and the new domain must be authorised.
    expect((await ofDomainA.put(routes(`/${mine.body.id}`), { recipient: `x@${domainB}` })).status).toBe(403);
    expect((await ofDomainA.put(routes(`/${mine.body.id}`), { recipient: '' })).status).toBe(403);
    expect((await ofDomainA.put(routes(`/${ofB.id}`), { recipient: `x@${domainA}` })).status).toBe(403);
    expect((await ofDomainA.delete(routes(`/${ofB.id}`))).status).toBe(403);
    expect((await ofDomainA.put(routes(`/${mine.body.id}`), { name: 'Mine, renamed', recipient: `help@${domainA}` })).body).toMatchObject({ name: 'Mine, renamed', recipient: `help@${domainA}` });
    expect((await ofDomainA.delete(routes(`/${mine.body.id}`))).status).toBe(200);
    const both = await keyWith([`routes:write:{${domainA}}`, `routes:write:{${domainB}}`]);
    expect((await both.put(routes(`/${ofB.id}`), { recipient: `moved@${domainA}` })).body.recipient).toBe(`moved@${domainA}`);
  });

  test("tenancy: another account's route is 404 under this account; this key on the other account's path is 401", async () => {
    const { api: other } = await newAccount('Route stranger');
    const theirDomain = `rt-stranger-${stamp}.example.com`;
    expect((await other.post(other.account('/domains'), { domain: theirDomain })).status).toBe(201);
    const theirs = (await other.post(other.account('/routes'), { name: 'Theirs', url: publicUrl(), recipient: `*@${theirDomain}` })).body;
    for (const response of [await api.get(routes(`/${theirs.id}`)), await api.put(routes(`/${theirs.id}`), { name: 'Mine now' }), await api.delete(routes(`/${theirs.id}`)), await api.post(routes(`/${theirs.id}/trigger`), {})]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'route not found' });
    }
    expect((await api.get(routes('?limit=100'))).body.data.map((item: { id: string }) => item.id)).not.toContain(theirs.id);
    // Their domain is not ours: no route of ours may take its mail.
    const stolen = await create({ name: 'Thief', url: publicUrl(), recipient: `*@${theirDomain}` });
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe(`recipient: ${theirDomain} is not a domain of this account`);
    expect((await api.get(`/v2/accounts/${other.accountId}/routes/${theirs.id}`)).status).toBe(401);
    expect((await other.get(other.account(`/routes/${theirs.id}`))).body).toMatchObject({ name: 'Theirs' });
  });

  test('idempotency: parallel creates with one Idempotency-Key make one route, replayed with the same secret; another body is 422', async () => {
    const { api: own } = await newAccount('Route idempotency');
    const key = `rt-${randomUUID()}`;
    const body = { name: 'Once', url: publicUrl('once'), recipient: '', attachments: true };
    const responses = await Promise.all(Array.from({ length: 6 }, () => own.post(own.account('/routes'), body, { headers: { 'Idempotency-Key': key } })));
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.headers.get('idempotent-replayed')).toBe('false');
    }
    const replay = await own.post(own.account('/routes'), body, { headers: { 'Idempotency-Key': key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    for (const response of created) expect(response.body).toEqual(replay.body);
    const listed = (await own.get(own.account('/routes'))).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].id).toBe(replay.body.id);
    const mismatch = await own.post(own.account('/routes'), { ...body, name: 'Twice' }, { headers: { 'Idempotency-Key': key } });
    expect(mismatch.status).toBe(422);
  });

  test.describe('the SSRF guard (no ALLOW_PRIVATE_NETWORKS on this server)', () => {
    const privateUrls: [string, string, RegExp][] = [
      ['loopback', 'https://127.0.0.1/route', /127\.0\.0\.1 is not a public address/],
      ['loopback in decimal', 'https://2130706433/route', /127\.0\.0\.1 is not a public address/],
      ['IPv6 loopback', 'https://[::1]/route', /::1 is not a public address/],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/route', /is not a public address/],
      ['localhost', 'https://localhost:8443/route', /localhost is this machine/],
      ['a private network', 'https://10.20.30.40/route', /10\.20\.30\.40 is not a public address/],
      ['link-local, cloud metadata', 'https://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is not a public address/],
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
      expect(triggered.body.data[0]).toMatchObject({ status: 'failed', response_status: null, error: `${rebinding} resolves only to addresses that are not public (127.0.0.1)` });
    });
  });

  test("a domain's DNS records: the MX (the domain, MAIL_HOSTNAME, priority 10) is shown and checked, and never decides dns_valid", async () => {
    const name = `rt-mx-${stamp}.example.com`;
    const { records } = await verifiedDomain(api, name);
    expect(records.find((record) => record.type === 'MX')).toMatchObject({ host: name, content: 'mx.mailstead.test', priority: 10, required: false, propagated: true });
    expect((await create({ name: 'Inbound', url: publicUrl(), recipient: `*@${name}` })).status).toBe(201);
    await new DnsControl().remove(name, 'MX');
    const checked = await api.post(api.account(`/domains/${name}/check-dns`));
    expect(checked.body.dns_valid).toBe(true);
    expect(checked.body.dns_records.find((record: { type: string }) => record.type === 'MX')).toMatchObject({ host: name, required: false, propagated: false });
  });
});

test.describe('trigger (a server that may call loopback)', () => {
  let suite: RouteServer;
  let receiver: WebhookReceiver;
  const domain = `rt-trigger-${stamp}.example.com`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    receiver = await new WebhookReceiver().start();
    suite = await startRouteServer('Route trigger');
    expect((await suite.api.post(suite.api.account('/domains'), { domain })).status).toBe(201);
  });
  test.afterAll(async () => {
    await suite?.stop();
    await receiver?.stop();
  });

  test('POST /routes/{id}/trigger - a signed sample message.routing reaches the receiver; the flags shape it; counters stay', async () => {
    const { api } = suite;
    const path = `/trigger-${stamp}`;
    const created = (await api.post(api.account('/routes'), { name: 'Sampled', url: receiver.url(path), recipient: `support@${domain}`, attachments: true, headers: true, strip_replies: true })).body;
    const triggered = await api.post(api.account(`/routes/${created.id}/trigger`), {});
    expect(triggered.status).toBe(200);
    expect(triggered.body).toEqual({ message: expect.stringContaining('delivered'), data: [{ id: expect.any(String), event_type: 'message.routing', status: 'delivered', response_status: 200, error: null }] });
    const [hook] = receiver.to(path);
    expect(hook.headers['webhook-id']).toBe(triggered.body.data[0].id);
    expect(hasValidSignature(hook, created.secret)).toBe(true);
    expect(new Webhook(created.secret, { format: 'raw' }).verify(hook.body, hook.headers as Record<string, string>)).toEqual(hook.json);
    expect(hook.json).toMatchObject({ type: 'message.routing', route_id: created.id, data: { to: `support@${domain}`, subject: expect.stringContaining('message.routing'), reply_from_plain_body: 'Thanks, that fixed it!\n', headers: expect.objectContaining({ 'X-Mailer': 'Mailstead sample' }) } });
    expect(hook.json.data.attachments.map((attachment: { filename: string }) => attachment.filename).sort()).toEqual(['logo.png', 'notes.txt']);
    // A body of {} or none at all, as the CLI and SDK send it.
    const bare = await api.request('POST', api.account(`/routes/${created.id}/trigger`));
    expect(bare.status).toBe(200);
    expect((await api.get(api.account(`/routes/${created.id}`))).body).toMatchObject({ success_count: 0, error_count: 0, last_request_at: null });
  });
});
