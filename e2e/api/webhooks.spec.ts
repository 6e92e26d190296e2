import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';
import { allFlags } from '../support/webhook-fixtures';

/**
 * The webhooks resource (`/v2/accounts/{id}/webhooks`) on the shared server: create, read, update,
 * delete and list with their filters, as the contract and the AhaSend CLI use them, and idempotent
 * creates. Bad input, scopes, tenancy and the SSRF guard are in webhooks-refusals.spec.ts; the events
 * a webhook delivers are in webhook-delivery.spec.ts.
 */
const stamp = Date.now().toString(36);
let counter = 0;
const publicUrl = (label = 'hook') => `https://hooks-${stamp}.example.com/${label}-${counter++}`;

test.describe('on the shared server', () => {
  let api: ApiClient;
  let domainA: string;
  let domainB: string;

  test.beforeAll(async () => {
    ({ api } = await newAccount('Webhooks'));
    domainA = `wh-a-${stamp}.example.com`;
    domainB = `wh-b-${stamp}.example.com`;
    for (const domain of [domainA, domainB])
      expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  });

  const hooks = (suffix = '') => api.account(`/webhooks${suffix}`);
  const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
    client.post(client.account('/webhooks'), body, { headers });

  test('POST /webhooks - 201 with every field, the secret once; GET and list never show it', async () => {
    const url = publicUrl('every-field');
    const body = {
      name: 'Every field',
      url,
      scope: 'scoped',
      domains: [domainB.toUpperCase(), `${domainA}.`],
      enabled: false,
      ...allFlags(true),
      on_dns_error: false,
    };
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
    const created = await create(
      {
        name: 'From the CLI',
        url: publicUrl('cli'),
        scope: '',
        ...allFlags(false),
        on_delivered: true,
        on_bounced: true,
      },
      api,
      headers,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      scope: 'global',
      domains: [],
      on_delivered: true,
      on_bounced: true,
      on_opened: false,
    });
    const second = await create({ name: 'From the CLI 2', url: publicUrl('cli'), scope: '', ...allFlags(true) }, api, {
      'Idempotency-Key': randomUUID(),
    });
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
    const updated = await api.put(hooks(`/${created.body.id}`), {
      enabled: false,
      ...allFlags(false),
      on_delivered: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'From the CLI',
      enabled: false,
      on_delivered: true,
      on_bounced: false,
      scope: 'global',
    });
    // `webhooks trigger` sends a random Idempotency-Key too; it is ignored there.
    const triggered = await api.post(
      hooks(`/${second.body.id}/trigger`),
      { events: ['message.delivered'] },
      { headers: { 'Idempotency-Key': randomUUID() } },
    );
    expect(triggered.status).toBe(200);
    expect(triggered.body.data).toEqual([
      {
        id: expect.any(String),
        event_type: 'message.delivered',
        status: 'failed',
        response_status: null,
        error: expect.stringMatching(/^DNS: no such host/),
      },
    ]);
  });

  test('PUT /webhooks/{id} - partial: null and omitted fields stay; scope and domain transitions as the contract has them', async () => {
    const url = publicUrl('put');
    const created = (await create({ name: 'Partial', url, scope: 'global', on_opened: true })).body;
    const nothing = await api.put(hooks(`/${created.id}`), {
      name: null,
      url: null,
      scope: null,
      domains: null,
      enabled: null,
      on_opened: null,
    });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({
      name: 'Partial',
      url,
      scope: 'global',
      domains: [],
      enabled: true,
      on_opened: true,
    });

    const toScopedWithout = await api.put(hooks(`/${created.id}`), { scope: 'scoped' });
    expect(toScopedWithout.status).toBe(400);
    expect(toScopedWithout.body.message).toMatch(/domains/);
    const toScopedEmpty = await api.put(hooks(`/${created.id}`), { scope: 'scoped', domains: [] });
    expect(toScopedEmpty.status).toBe(400);

    const scoped = await api.put(hooks(`/${created.id}`), {
      scope: 'scoped',
      domains: [domainA],
      on_clicked: true,
      url: publicUrl('moved'),
      name: 'Moved',
    });
    expect(scoped.status).toBe(200);
    expect(scoped.body).toMatchObject({
      scope: 'scoped',
      domains: [domainA],
      on_clicked: true,
      on_opened: true,
      name: 'Moved',
    });
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
    const make = (body: Record<string, unknown>) =>
      own.post(own.account('/webhooks'), { url: publicUrl('filter'), scope: 'global', ...body });
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
    for (const query of [
      'enabled=yes',
      'enabled=1',
      'on_delivered=TRUE',
      'on_dns_error=maybe',
      'limit=0',
      'limit=101',
    ]) {
      const response = await own.get(own.account(`/webhooks?${query}`));
      expect(response.status, query).toBe(400);
      expect(response.body.message).toContain(query.split('=')[0]);
    }
  });

  test('idempotency: parallel creates with one Idempotency-Key make one webhook, replayed with the same secret; another body is 422', async () => {
    const { api: own } = await newAccount('Webhook idempotency');
    const key = `wh-${randomUUID()}`;
    const body = { name: 'Once', url: publicUrl('once'), scope: 'global', on_delivered: true };
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        own.post(own.account('/webhooks'), body, { headers: { 'Idempotency-Key': key } }),
      ),
    );
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
    const mismatch = await own.post(
      own.account('/webhooks'),
      { ...body, name: 'Twice' },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(mismatch.status).toBe(422);
  });
});
