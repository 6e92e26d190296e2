import { expect, test } from '@playwright/test';
import { allAuditEvents } from '../support/audit-fixtures';
import { runCli } from '../support/cli';
import type { ApiClient } from '../support/client';
import { newAccount, sharedServer } from '../support/shared';
import { makePartner } from '../support/sub-account-fixtures';

/**
 * GET /v2/accounts/{id}/audit-events: filters, order, pages and refusals; what the CLI records; a
 * partner reading its sub accounts' events; and that no secret ever reaches an event.
 */
let api: ApiClient;
let accountId: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('Audit events'));
  for (const name of ['a', 'b', 'c'])
    expect((await api.post(api.account('/domains'), { domain: `${name}-${stamp}.audit.example.com` })).status).toBe(
      201,
    );
  const list = await api.post(api.account('/lists'), { name: 'Readers' });
  expect((await api.put(api.account(`/lists/${list.body.id}`), { description: 'weekly' })).status).toBe(200);
  expect((await api.delete(api.account(`/domains/c-${stamp}.audit.example.com`))).status).toBe(200);
});

test('newest first; an exact action, a family, a resource and an actor narrow it; changes name the fields', async () => {
  const events = await allAuditEvents(api);
  expect(events.map((event) => event.action)).toEqual([
    'domain.delete',
    'list.update',
    'list.create',
    'domain.create',
    'domain.create',
    'domain.create',
    'account.create',
  ]);
  expect(events[1].changes).toEqual(['description']);
  expect((await allAuditEvents(api, '&action=domain.create')).length).toBe(3);
  expect((await allAuditEvents(api, '&action=domain.*')).map((event) => event.action)).toEqual([
    'domain.delete',
    'domain.create',
    'domain.create',
    'domain.create',
  ]);
  const aDomain = `a-${stamp}.audit.example.com`;
  expect(
    (await allAuditEvents(api, `&resource_type=domain&resource_id=${aDomain}`)).map((event) => event.action),
  ).toEqual(['domain.create']);
  expect((await allAuditEvents(api, '&actor_type=operator')).map((event) => event.action)).toEqual(['account.create']);
  const keyId = events[0].actor.id!;
  expect((await allAuditEvents(api, `&actor_id=${keyId}`)).length).toBe(6);
});

test('a time window: from_time included, to_time excluded; pages of one walk the whole log', async () => {
  const events = await allAuditEvents(api);
  const middle = events[3].occurred_at;
  const later = await allAuditEvents(api, `&from_time=${middle}`);
  expect(later.every((event) => event.occurred_at >= middle)).toBe(true);
  const earlier = await allAuditEvents(api, `&to_time=${middle}`);
  expect(earlier.every((event) => event.occurred_at < middle)).toBe(true);
  expect(later.length + earlier.length).toBe(events.length);
  const walked: string[] = [];
  let after = '';
  for (;;) {
    const page = await api.get(api.account(`/audit-events?limit=1${after}`));
    walked.push(...page.body.data.map((event: { id: string }) => event.id));
    if (!page.body.pagination.has_more) break;
    after = `&after=${page.body.pagination.next_cursor}`;
  }
  expect(walked).toEqual(events.map((event) => event.id));
});

const BAD_QUERIES: [string, string][] = [
  ['action=domain', 'action'],
  ['action=domain.*.*', 'action'],
  ['actor_type=robot', 'actor_type'],
  ['from_time=yesterday', 'from_time'],
  ['from_time=2026-01-02T00:00:00Z&to_time=2026-01-01T00:00:00Z', 'from_time'],
  ['limit=0', 'limit'],
];
for (const [query, field] of BAD_QUERIES) {
  test(`GET /audit-events?${query} - 400 naming ${field}`, async () => {
    const response = await api.get(api.account(`/audit-events?${query}`));
    expect(response.status, response.text).toBe(400);
    expect(response.body.message).toContain(field);
  });
}

test('a key without accounts:read is refused; another account sees none of these events', async () => {
  const narrow = await api.post(api.account('/api-keys'), { label: 'narrow', scopes: ['domains:read'] });
  const refused = await api.with(narrow.body.secret_key).get(api.account('/audit-events'));
  expect(refused.status).toBe(403);
  const other = await newAccount('Audit stranger');
  const theirs = await allAuditEvents(other.api);
  expect(theirs.map((event) => event.account_id)).toEqual([other.accountId]);
  expect((await other.api.get(`/v2/accounts/${accountId}/audit-events`)).status).toBe(401);
});

test('the CLI records its changes as the operator', async () => {
  const { cliEnv } = sharedServer();
  expect((await runCli(['accounts', 'set-tier', accountId, 'partner'], cliEnv)).code).toBe(0);
  const v1 = await runCli(['accounts', 'v1-key', accountId, '--label', 'legacy', '--json'], cliEnv);
  expect(v1.code, v1.stderr).toBe(0);
  const [key, tier] = await allAuditEvents(api, '&actor_type=operator');
  expect(tier).toMatchObject({
    action: 'account.update',
    actor: { type: 'operator', id: null, label: null },
    resource: { type: 'account', id: accountId },
    changes: ['tier'],
    ip: null,
    request_id: null,
  });
  expect(key).toMatchObject({ action: 'v1_key.create', resource: { type: 'v1_key', id: JSON.parse(v1.stdout).id } });
});

test("a partner's key reads its sub accounts' events, each naming the sub account; the sub account's own key sees only its own", async () => {
  const partner = await makePartner('Audit partner');
  const child = await partner.api.post(partner.api.account('/sub-accounts'), {
    name: 'Child',
    website: 'child.example.com',
    monthly_credit: 100,
  });
  const childKey = await partner.api.post(partner.api.account(`/sub-accounts/${child.body.id}/api-keys`), {
    label: 'child admin',
    scopes: ['accounts:read', 'domains:write'],
  });
  const childApi = partner.api.with(childKey.body.secret_key, child.body.id);
  expect((await childApi.post(childApi.account('/domains'), { domain: `child-${stamp}.example.com` })).status).toBe(
    201,
  );
  const seenByPartner = await allAuditEvents(partner.api);
  expect(seenByPartner.filter((event) => event.account_id === child.body.id).map((event) => event.action)).toEqual([
    'domain.create',
    'api_key.create',
    'sub_account.create',
  ]);
  const seenByChild = await allAuditEvents(childApi);
  expect(seenByChild.map((event) => event.account_id)).toEqual([child.body.id, child.body.id, child.body.id]);
  expect(seenByChild[0].actor).toEqual({ type: 'api_key', id: childKey.body.id, label: 'child admin' });
});

test('no secret reaches an event: API keys, SMTP passwords, webhook and route secrets, v1 keys', async () => {
  const { api: own, accountId: ownId } = await newAccount('Audit secrets');
  const domain = `secrets-${stamp}.example.com`;
  expect((await own.post(own.account('/domains'), { domain })).status).toBe(201);
  const secrets = [
    (await own.post(own.account('/api-keys'), { label: 'k', scopes: ['domains:read'] })).body.secret_key,
    (await own.post(own.account('/smtp-credentials'), { name: 's', scope: 'global' })).body.password,
    (
      await own.post(own.account('/webhooks'), {
        name: 'w',
        url: 'https://hooks.secret.example.com/h',
        scope: 'global',
      })
    ).body.secret,
    (
      await own.post(own.account('/routes'), {
        name: 'r',
        url: 'https://hooks.secret.example.com/in',
        recipient: `in@${domain}`,
      })
    ).body.secret,
    JSON.parse(
      (await runCli(['accounts', 'v1-key', ownId, '--label', 'secret', '--json'], sharedServer().cliEnv)).stdout,
    ).key,
  ];
  expect(secrets.every((secret) => typeof secret === 'string' && secret.length >= 16)).toBe(true);
  const stored = JSON.stringify(await allAuditEvents(own));
  expect(stored).toContain('smtp_credential.create');
  for (const secret of secrets) expect(stored).not.toContain(secret);
});
