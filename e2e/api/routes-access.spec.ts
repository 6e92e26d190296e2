import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { routeAccount, routeHelpers } from '../support/route-fixtures';
import { newAccount } from '../support/shared';

/**
 * Who reaches the routes resource on the shared server: scopes (the domain of the recipient decides;
 * a domain-scoped key lists with ?domain=), tenancy between accounts, and idempotent creates. CRUD is
 * in routes.spec.ts.
 */
let api: ApiClient;
let domainA: string;
let domainB: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, domainA, domainB } = await routeAccount(stamp));
});

const { publicUrl, routes, create, keyWith } = routeHelpers(() => api, stamp);

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
  expect((await reader.get(routes('?limit=100'))).body.data.map((item: { id: string }) => item.id)).toEqual(
    expect.arrayContaining([ofA.id, ofB.id, everywhere.id]),
  );
  expect((await create({ name: 'x', url: publicUrl(), recipient: `x@${domainA}` }, reader)).status).toBe(403);
  expect((await reader.put(routes(`/${ofA.id}`), { name: 'x' })).status).toBe(403);
  expect((await reader.delete(routes(`/${ofA.id}`))).status).toBe(403);

  const ofDomainA = await keyWith([
    `routes:read:{${domainA}}`,
    `routes:write:{${domainA}}`,
    `routes:delete:{${domainA}}`,
  ]);
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
  expect(
    (await ofDomainA.put(routes(`/${mine.body.id}`), { name: 'Mine, renamed', recipient: `help@${domainA}` })).body,
  ).toMatchObject({ name: 'Mine, renamed', recipient: `help@${domainA}` });
  expect((await ofDomainA.delete(routes(`/${mine.body.id}`))).status).toBe(200);
  const both = await keyWith([`routes:write:{${domainA}}`, `routes:write:{${domainB}}`]);
  expect((await both.put(routes(`/${ofB.id}`), { recipient: `moved@${domainA}` })).body.recipient).toBe(
    `moved@${domainA}`,
  );
});

test("tenancy: another account's route is 404 under this account; this key on the other account's path is 401", async () => {
  const { api: other } = await newAccount('Route stranger');
  const theirDomain = `rt-stranger-${stamp}.example.com`;
  expect((await other.post(other.account('/domains'), { domain: theirDomain })).status).toBe(201);
  const theirs = (
    await other.post(other.account('/routes'), { name: 'Theirs', url: publicUrl(), recipient: `*@${theirDomain}` })
  ).body;
  for (const response of [
    await api.get(routes(`/${theirs.id}`)),
    await api.put(routes(`/${theirs.id}`), { name: 'Mine now' }),
    await api.delete(routes(`/${theirs.id}`)),
    await api.post(routes(`/${theirs.id}/trigger`), {}),
  ]) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'route not found' });
  }
  expect((await api.get(routes('?limit=100'))).body.data.map((item: { id: string }) => item.id)).not.toContain(
    theirs.id,
  );
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
  const responses = await Promise.all(
    Array.from({ length: 6 }, () => own.post(own.account('/routes'), body, { headers: { 'Idempotency-Key': key } })),
  );
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
  const mismatch = await own.post(
    own.account('/routes'),
    { ...body, name: 'Twice' },
    { headers: { 'Idempotency-Key': key } },
  );
  expect(mismatch.status).toBe(422);
});
