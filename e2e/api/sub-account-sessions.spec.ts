import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import type { ApiClient } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';
import { cli, expectError, makePartner, subAccountHelpers, unique, UNKNOWN_ID } from '../support/sub-account-fixtures';

/**
 * A partner's people in its sub accounts, by dashboard session: they open a child with the role they
 * hold in the partner (read only in a child the partner suspended), while the child's own members
 * reach neither the partner nor a sibling, a stranger reaches no child, and a deleted child is gone.
 * And a sub account's usage month by month (/internal, session only).
 */
let partner: Awaited<ReturnType<typeof makePartner>>;
let anonymous: ApiClient;
let ownerSession: Record<string, string>;

test.beforeAll(async () => {
  partner = await makePartner('Session partner');
  anonymous = partner.api.with(null);
  ownerSession = await dashboardSession(partner.ownerId);
});

const { subs, createSub, childClient } = subAccountHelpers(() => partner.api);

/** A new person with a role in the account, and their session. */
async function personIn(accountId: string, role: string): Promise<{ userId: string; session: Record<string, string> }> {
  const added = await runCli(
    [
      'accounts',
      'add-member',
      accountId,
      '--email',
      `${unique('person').replace(/\W/g, '-')}@sessions.example`,
      '--password',
      'session person password',
      '--role',
      role,
    ],
    sharedServer().cliEnv,
  );
  expect(added.code, added.stderr).toBe(0);
  const userId = /\(([0-9a-f-]{36})\)/.exec(added.stdout)![1];
  return { userId, session: await dashboardSession(userId) };
}

// Responses of /v2 paths are checked against the contract as for keys.
const get = (path: string, session: Record<string, string>) => anonymous.get(path, { headers: session });
const post = (path: string, body: unknown, session: Record<string, string>) =>
  anonymous.post(path, body, { headers: session });

test('GET /internal/me - the partner is followed by its sub accounts, each naming the partner and reached through it', async () => {
  const first = await createSub({ name: unique('Me child') });
  const me = await get('/internal/me', ownerSession);
  expect(me.status, me.text).toBe(200);
  const accounts = me.body.accounts as {
    id: string;
    via: string;
    role: string;
    parent_account: { id: string; name: string } | null;
    scopes: string[];
  }[];
  const partnerIndex = accounts.findIndex((account) => account.id === partner.accountId);
  expect(accounts[partnerIndex]).toMatchObject({ via: 'member', role: 'Administrator', parent_account: null });
  const child = accounts.find((account) => account.id === first.id)!;
  expect(child).toMatchObject({
    via: 'parent',
    role: 'Administrator',
    parent_account: { id: partner.accountId, name: 'Session partner' },
    scopes: ['*'],
  });
  expect(accounts.indexOf(child)).toBeGreaterThan(partnerIndex);
});

test("a partner's Analyst reads a sub account with the Analyst scopes and writes nothing there", async () => {
  const sub = await createSub();
  const analyst = await personIn(partner.accountId, 'Analyst');
  expect((await get(`/v2/accounts/${sub.id}`, analyst.session)).status).toBe(200);
  expect((await get(`/v2/accounts/${sub.id}/domains`, analyst.session)).status).toBe(200);
  expectError(
    await post(`/v2/accounts/${sub.id}/domains`, { domain: 'analyst.example.com' }, analyst.session),
    403,
    /insufficient permissions/,
  );
  expectError(
    await post(`/v2/accounts/${sub.id}/api-keys`, { label: 'x', scopes: ['domains:read'] }, analyst.session),
    403,
    /insufficient permissions/,
  );
  const me = await get('/internal/me', analyst.session);
  const child = (me.body.accounts as { id: string; role: string; scopes: string[] }[]).find(
    (account) => account.id === sub.id,
  )!;
  expect(child.role).toBe('Analyst');
  expect(child.scopes).not.toContain('domains:write');
  expect(child.scopes).toContain('messages:read:all');
});

test("a child's own member opens the child only: not the partner, not a sibling", async () => {
  const [sub, sibling] = [await createSub(), await createSub()];
  const member = await personIn(sub.id, 'Administrator');
  expect((await get(`/v2/accounts/${sub.id}`, member.session)).status).toBe(200);
  for (const other of [partner.accountId, sibling.id]) {
    expectError(await get(`/v2/accounts/${other}`, member.session), 401, /not a member/);
    expectError(await get(`/v2/accounts/${other}/sub-accounts`, member.session), 401, /not a member/);
  }
  const me = await get('/internal/me', member.session);
  expect(
    (me.body.accounts as { id: string; parent_account: { id: string } | null }[]).map((account) => [
      account.id,
      account.parent_account?.id,
    ]),
  ).toEqual([[sub.id, partner.accountId]]);
});

test("a stranger's session opens no sub account, whatever id it guesses", async () => {
  const sub = await createSub();
  const stranger = await newAccount('Session stranger');
  const session = await dashboardSession(stranger.ownerId);
  for (const id of [sub.id, partner.accountId, UNKNOWN_ID])
    expectError(await get(`/v2/accounts/${id}`, session), 401, /not a member/);
});

test('a deleted sub account cannot be opened, and leaves /internal/me', async () => {
  const sub = await createSub();
  expect((await get(`/v2/accounts/${sub.id}`, ownerSession)).status).toBe(200);
  expect((await partner.api.delete(subs(partner.api, `/${sub.id}`))).status).toBe(200);
  expectError(await get(`/v2/accounts/${sub.id}`, ownerSession), 401, /not a member/);
  expect(
    ((await get('/internal/me', ownerSession)).body.accounts as { id: string }[]).map((account) => account.id),
  ).not.toContain(sub.id);
});

test("a sub account the partner suspended is read only for the partner's people and closed to its own members", async () => {
  const sub = await createSub();
  const member = await personIn(sub.id, 'Administrator');
  expect((await partner.api.post(subs(partner.api, `/${sub.id}/suspend`), { reason: 'unpaid' })).status).toBe(200);
  expect((await get(`/v2/accounts/${sub.id}/domains`, ownerSession)).status).toBe(200);
  expectError(
    await post(`/v2/accounts/${sub.id}/domains`, { domain: 'suspended.example.com' }, ownerSession),
    403,
    /insufficient permissions/,
  );
  expectError(await get(`/v2/accounts/${sub.id}`, member.session), 401, 'Account is suspended');
  const child = (
    (await get('/internal/me', ownerSession)).body.accounts as { id: string; status: string; scopes: string[] }[]
  ).find((account) => account.id === sub.id)!;
  expect(child.status).toBe('suspended');
  expect(child.scopes.every((scope) => scope.split(':').includes('read'))).toBe(true);

  expect((await partner.api.post(subs(partner.api, `/${sub.id}/unsuspend`))).status).toBe(200);
  expect(
    (await post(`/v2/accounts/${sub.id}/domains`, { domain: `unsuspended-${Date.now()}.example.com` }, ownerSession))
      .status,
  ).toBe(201);
});

test("a suspended partner's people are refused in its sub accounts too", async () => {
  // Four CLI runs (tier, suspend, unsuspend and the partner's own), each a process of its own.
  test.setTimeout(120_000);
  const parent = await makePartner('Suspended partner');
  const sub = await createSub({}, parent.api);
  const session = await dashboardSession(parent.ownerId);
  expect((await get(`/v2/accounts/${sub.id}`, session)).status).toBe(200);
  expect((await cli(['accounts', 'suspend', parent.accountId])).code).toBe(0);
  try {
    expectError(await get(`/v2/accounts/${sub.id}`, session), 401, 'Account is suspended');
  } finally {
    expect((await cli(['accounts', 'unsuspend', parent.accountId])).code).toBe(0);
  }
  expect((await get(`/v2/accounts/${sub.id}`, session)).status).toBe(200);
});

test.describe('GET /internal/accounts/:id/sub-accounts/:sub/usage-history', () => {
  const history = (accountId: string, subId: string, query = '') =>
    `/internal/accounts/${accountId}/sub-accounts/${subId}/usage-history${query}`;

  test("twelve UTC months by default, the current one last, counting the child's accepted mail", async () => {
    const sub = await createSub({ monthly_credit: 100 });
    const child = await childClient(sub.id);
    const domain = `history-${Date.now()}.example.com`;
    await verifiedDomain(child.api, domain);
    const sent = await child.api.post(child.api.account('/messages'), {
      from: { email: `app@${domain}` },
      recipients: [{ email: 'one@example.org' }, { email: 'two@example.org' }],
      subject: 'history',
      text_content: 'hello',
      sandbox: true,
    });
    expect(sent.status, sent.text).toBe(202);
    const response = await get(history(partner.accountId, sub.id), ownerSession);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ object: 'list', sub_account_id: sub.id, monthly_credit: 100 });
    expect(response.body.data).toHaveLength(12);
    const current = new Date().toISOString().slice(0, 7);
    expect(response.body.data.at(-1)).toMatchObject({ month: current, reception_count: 2 });
    expect(Object.keys(response.body.data[0]).sort()).toEqual([
      'bounced_count',
      'delivered_count',
      'from_timestamp',
      'month',
      'reception_count',
      'to_timestamp',
    ]);
    expect((await get(history(partner.accountId, sub.id, '?months=3'), ownerSession)).body.data).toHaveLength(3);
  });

  test.describe('refusals', () => {
    const cases: [string, string, number, RegExp][] = [
      ['months=0', '?months=0', 400, /months: must be a whole number from 1 to 24/],
      ['months=25', '?months=25', 400, /months: must be a whole number from 1 to 24/],
      ['months=abc', '?months=abc', 400, /months/],
    ];
    for (const [name, query, status, message] of cases) {
      test(`${name} is ${status}`, async () => {
        const sub = await createSub();
        expectError(await get(history(partner.accountId, sub.id, query), ownerSession), status, message);
      });
    }

    test("another partner's sub account is 404; a child's id as the parent is 403; an API key is refused", async () => {
      const other = await makePartner('History other');
      const theirs = await createSub({}, other.api);
      expectError(await get(history(partner.accountId, theirs.id), ownerSession), 404, /Sub account not found/);
      const sub = await createSub();
      expectError(await get(history(sub.id, sub.id), ownerSession), 403, /cannot have sub accounts/);
      expect((await partner.api.get(history(partner.accountId, sub.id), { checkContract: false })).status).toBe(401);
    });

    test('a Developer of the partner (no sub-accounts:usage) is 403', async () => {
      const sub = await createSub();
      const developer = await personIn(partner.accountId, 'Developer');
      expectError(await get(history(partner.accountId, sub.id), developer.session), 403, /sub-accounts:usage/);
    });
  });
});
