import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { routeAccount, routeHelpers } from '../support/route-fixtures';
import { verifiedDomain } from '../support/sending';

/**
 * The routes resource (`/v2/accounts/{id}/routes`) on the shared server, which has no
 * ALLOW_PRIVATE_NETWORKS: CRUD as the contract and the AhaSend CLI have it, and the MX record of a
 * domain. Bad input and the SSRF guard are in routes-validation.spec.ts, scopes, tenancy and
 * idempotency in routes-access.spec.ts, "trigger" (on a server of its own that may call a loopback
 * receiver) in routes-trigger.spec.ts. Mail arriving at the MX is in e2e/smtp/mx.spec.ts.
 */
let api: ApiClient;
let domainA: string;
let domainB: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, domainA, domainB } = await routeAccount(stamp));
});

const { publicUrl, routes, create } = routeHelpers(() => api, stamp);

test('POST /routes - 201 with every field, the secret once; GET, list and update never show it', async () => {
  const url = publicUrl('every-field');
  const body = {
    name: 'Every field',
    url,
    recipient: `Support@${domainA.toUpperCase()}`,
    attachments: true,
    headers: true,
    group_by_message_id: true,
    strip_replies: true,
    enabled: false,
  };
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
  expect(created.body).toMatchObject({
    recipient: `*@${domainA}`,
    enabled: true,
    attachments: false,
    headers: false,
    group_by_message_id: false,
    strip_replies: false,
  });
});

test('the AhaSend CLI way: every option explicit, enabled:false, recipient "" (no filter), a random Idempotency-Key, paging with cursor=', async () => {
  const headers = { 'Idempotency-Key': randomUUID(), 'User-Agent': 'ahasend-cli/1.0.0' };
  const cliBody = (name: string, recipient: string) => ({
    name,
    url: publicUrl('cli'),
    recipient,
    attachments: false,
    headers: false,
    group_by_message_id: false,
    strip_replies: false,
    enabled: false,
  });
  const first = await create(cliBody('From the CLI', ''), api, headers);
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({ recipient: '', enabled: false });
  const second = await create(cliBody('From the CLI 2', `support-*@${domainB}`), api, {
    'Idempotency-Key': randomUUID(),
  });
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
  const triggered = await api.post(
    routes(`/${second.body.id}/trigger`),
    {},
    { headers: { 'Idempotency-Key': randomUUID() } },
  );
  expect(triggered.status).toBe(200);
  expect(triggered.body.data).toEqual([
    {
      id: expect.any(String),
      event_type: 'message.routing',
      status: 'failed',
      response_status: null,
      error: expect.stringMatching(/^DNS: no such host/),
    },
  ]);
});

test('PUT /routes/{id} - partial: null and omitted fields stay; every field can change', async () => {
  const url = publicUrl('put');
  const created = (await create({ name: 'Partial', url, recipient: `a@${domainA}`, headers: true })).body;
  const nothing = await api.put(routes(`/${created.id}`), {
    name: null,
    url: null,
    recipient: null,
    attachments: null,
    headers: null,
    group_by_message_id: null,
    strip_replies: null,
    enabled: null,
  });
  expect(nothing.status).toBe(200);
  expect(nothing.body).toMatchObject({
    name: 'Partial',
    url,
    recipient: `a@${domainA}`,
    headers: true,
    enabled: true,
  });
  const moved = publicUrl('moved');
  const changed = await api.put(routes(`/${created.id}`), {
    name: 'Moved',
    url: moved,
    recipient: `b-*@${domainA}`,
    attachments: true,
    headers: false,
    group_by_message_id: true,
    strip_replies: true,
    enabled: false,
  });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({
    name: 'Moved',
    url: moved,
    recipient: `b-*@${domainA}`,
    attachments: true,
    headers: false,
    group_by_message_id: true,
    strip_replies: true,
    enabled: false,
  });
  expect(Date.parse(changed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
  expect((await api.get(routes(`/${created.id}`))).body).toEqual(changed.body);
});

test('DELETE /routes/{id} - 200 with a message, then 404 everywhere', async () => {
  const created = (await create({ name: 'Doomed', url: publicUrl(), recipient: `x@${domainA}` })).body;
  const deleted = await api.delete(routes(`/${created.id}`));
  expect(deleted.status).toBe(200);
  expect(deleted.body).toEqual({ message: expect.stringContaining(created.id) });
  for (const response of [
    await api.get(routes(`/${created.id}`)),
    await api.put(routes(`/${created.id}`), { name: 'x' }),
    await api.delete(routes(`/${created.id}`)),
    await api.post(routes(`/${created.id}/trigger`), {}),
  ]) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'route not found' });
  }
});

test("a domain's DNS records: the MX (the domain, MAIL_HOSTNAME, priority 10) is shown and checked, and never decides dns_valid", async () => {
  const name = `rt-mx-${stamp}.example.com`;
  const { records } = await verifiedDomain(api, name);
  expect(records.find((record) => record.type === 'MX')).toMatchObject({
    host: name,
    content: 'mx.mailstead.test',
    priority: 10,
    required: false,
    propagated: true,
  });
  expect((await create({ name: 'Inbound', url: publicUrl(), recipient: `*@${name}` })).status).toBe(201);
  await new DnsControl().remove(name, 'MX');
  const checked = await api.post(api.account(`/domains/${name}/check-dns`));
  expect(checked.body.dns_valid).toBe(true);
  expect(checked.body.dns_records.find((record: { type: string }) => record.type === 'MX')).toMatchObject({
    host: name,
    required: false,
    propagated: false,
  });
});
