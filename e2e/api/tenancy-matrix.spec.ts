import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import { dashboardSession } from '../support/dashboard-session';
import type { ApiClient, ApiResponse } from '../support/client';
import { newAccount, sharedServer } from '../support/shared';

/**
 * Tenancy across every operation the server documents at /v2/openapi.json, generated rather than
 * hand-picked: a child key never reaches its parent or a sibling, and a parent key never reaches its
 * child on ordinary routes (only through /sub-accounts). Each call must be refused (401, 403 or
 * 404), never answered with a 2xx.
 */

type Operation = { method: string; path: string };

const REFUSED = [401, 403, 404];
// Values for the other path parameters: well formed, so that a refusal is about the account.
const SAMPLE_PARAMS: Record<string, string> = {
  domain: 'tenancy.example.com',
  id_or_email: 'someone@example.org',
  version: '1',
};
const SAMPLE_ID = '01a20000-0000-7000-8000-00000000beef';

let parent: ApiClient;
let parentId: string;
let childId: string;
let siblingId: string;
let childKey: ApiClient;
let parentOwnerId: string;
let operations: Operation[] = [];

test.beforeAll(async () => {
  const made = await newAccount('Tenancy parent');
  parent = made.api;
  parentId = made.accountId;
  parentOwnerId = made.ownerId;
  expect((await runCli(['accounts', 'set-tier', parentId, 'partner'], sharedServer().cliEnv)).code).toBe(0);
  const subs = parent.account('/sub-accounts');
  childId = (await parent.post(subs, { name: 'Tenancy child', website: 'child.example.com' })).body.id;
  siblingId = (await parent.post(subs, { name: 'Tenancy sibling', website: 'sibling.example.com' })).body.id;
  const key = await parent.post(parent.account(`/sub-accounts/${childId}/api-keys`), {
    label: 'tenancy child',
    scopes: ['*'],
  });
  expect(key.status).toBe(201);
  childKey = parent.with(key.body.secret_key, childId);

  const document = await parent.get('/v2/openapi.json', { checkContract: false });
  expect(document.status).toBe(200);
  const paths = document.body.paths as Record<string, Record<string, unknown>>;
  operations = Object.entries(paths)
    .filter(([path]) => path.includes('{account_id}'))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'delete'].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
});

function resolve(path: string, accountId: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'account_id' ? accountId : (SAMPLE_PARAMS[name] ?? SAMPLE_ID),
  );
}

// Well-formed bodies for the sub-account writes, so that a child on its own id is refused for being a
// child, not for its input (bodies are validated before the account is looked up).
const SUB_ACCOUNT_BODIES: [RegExp, unknown][] = [
  [/\/sub-accounts$/, { name: 'n', website: 'n.example.com' }],
  [/\/sub-accounts\/\{sub_account_id\}$/, { name: 'renamed' }],
  [/\/suspend$/, { reason: 'r' }],
  [/\/api-keys$/, { label: 'l', scopes: ['domains:read'] }],
  [/\/api-keys\/\{key_id\}$/, { label: 'l2' }],
];

function bodyOf(operation: Operation): unknown {
  if (operation.method !== 'POST' && operation.method !== 'PUT') return undefined;
  return SUB_ACCOUNT_BODIES.find(([pattern]) => pattern.test(operation.path))?.[1] ?? {};
}

/** Many requests in a row: a 429 is the rate limit, not an answer about tenancy. */
async function call(
  client: ApiClient,
  operation: Operation,
  accountId: string,
  headers?: Record<string, string>,
): Promise<ApiResponse> {
  const body = bodyOf(operation);
  for (;;) {
    const response = await client.request(operation.method, resolve(operation.path, accountId), {
      body,
      headers,
      checkContract: false,
    });
    if (response.status !== 429) return response;
    await new Promise((done) => setTimeout(done, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

function expectRefused(response: ApiResponse, label: string) {
  expect(REFUSED, `${label} answered ${response.status}: ${response.text}`).toContain(response.status);
}

test('the document lists the account-scoped operations, sub accounts among them', () => {
  expect(operations.length).toBeGreaterThan(50);
  expect(operations.some((operation) => operation.path.includes('/sub-accounts/{sub_account_id}/api-keys'))).toBe(true);
});

test("a child key is refused on every operation against its parent's account id", async () => {
  for (const operation of operations)
    expectRefused(await call(childKey, operation, parentId), `${operation.method} ${operation.path} as the parent`);
});

test("a child key is refused on every operation against a sibling's account id", async () => {
  for (const operation of operations)
    expectRefused(await call(childKey, operation, siblingId), `${operation.method} ${operation.path} as a sibling`);
});

test("a parent key is refused on every operation against its child's account id", async () => {
  for (const operation of operations)
    expectRefused(await call(parent, operation, childId), `${operation.method} ${operation.path} as the child`);
});

test('a child key on its own account cannot use the sub-account operations (they are for parents)', async () => {
  for (const operation of operations.filter((candidate) => candidate.path.includes('/sub-accounts'))) {
    expectRefused(
      await call(childKey, operation, childId),
      `${operation.method} ${operation.path} on the child itself`,
    );
  }
});

/** A person added to an account with the CLI, and their dashboard session. */
async function memberSession(accountId: string, label: string): Promise<Record<string, string>> {
  const added = await runCli(
    [
      'accounts',
      'add-member',
      accountId,
      '--email',
      `${label}-${Date.now()}@tenancy.example`,
      '--password',
      'tenancy member password',
      '--role',
      'Administrator',
    ],
    sharedServer().cliEnv,
  );
  expect(added.code, added.stderr).toBe(0);
  return dashboardSession(/\(([0-9a-f-]{36})\)/.exec(added.stdout)![1]);
}

test("the parent owner's dashboard session opens the child, but never the sub-account operations on the child's id", async () => {
  const session = await dashboardSession(parentOwnerId);
  const anonymous = parent.with(null);
  expect((await call(anonymous, { method: 'GET', path: '/v2/accounts/{account_id}' }, childId, session)).status).toBe(
    200,
  );
  for (const operation of operations.filter((candidate) => candidate.path.includes('/sub-accounts'))) {
    expectRefused(
      await call(anonymous, operation, childId, session),
      `${operation.method} ${operation.path} by the parent's session on the child`,
    );
  }
  expect(
    (await call(anonymous, { method: 'GET', path: '/v2/accounts/{account_id}/sub-accounts' }, parentId, session))
      .status,
  ).toBe(200);
});

test("a child member's dashboard session is refused on every operation against its parent's and its sibling's account ids", async () => {
  const session = await memberSession(childId, 'child-admin');
  const anonymous = parent.with(null);
  expect((await call(anonymous, { method: 'GET', path: '/v2/accounts/{account_id}' }, childId, session)).status).toBe(
    200,
  );
  for (const operation of operations) {
    expectRefused(
      await call(anonymous, operation, parentId, session),
      `${operation.method} ${operation.path} by a child member on the parent`,
    );
    expectRefused(
      await call(anonymous, operation, siblingId, session),
      `${operation.method} ${operation.path} by a child member on a sibling`,
    );
  }
});

test("an unrelated account's Administrator is refused on every operation against a child's account id", async () => {
  const stranger = await newAccount('Tenancy stranger');
  const session = await memberSession(stranger.accountId, 'stranger-admin');
  const anonymous = parent.with(null);
  for (const operation of operations)
    expectRefused(
      await call(anonymous, operation, childId, session),
      `${operation.method} ${operation.path} by a stranger on the child`,
    );
});
