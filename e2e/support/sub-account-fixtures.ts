import { expect } from '@playwright/test';
import { controlCommand, runCli } from './cli';
import type { ApiClient, ApiResponse } from './client';
import { newAccount, sharedServer } from './shared';

/** What the sub-account specs share: a partner account, its children, their keys, error checks. */
export const SUB_ACCOUNT_FIELDS = [
  'created_at',
  'domain_count',
  'id',
  'last_activity_at',
  'member_count',
  'monthly_credit',
  'name',
  'object',
  'parent_account_id',
  'status',
  'suspension_reason',
  'website',
];
export const UNKNOWN_ID = '01a20000-0000-7000-8000-00000000dead';

export async function makePartner(name: string) {
  const account = await newAccount(name);
  // Straight to the server's control socket on PGlite, as createAccountWithKey does (support/cli.ts).
  const env = sharedServer().cliEnv;
  const args = { account_id: account.accountId, tier: 'partner' };
  if ((await controlCommand(env, 'accounts.set-tier', args)) === null)
    expect((await runCli(['accounts', 'set-tier', account.accountId, 'partner'], env)).code).toBe(0);
  return account;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix} ${Date.now()}-${counter++}`;

export function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

export const cli = (args: string[]) => runCli(args, sharedServer().cliEnv);

export async function statusOnInstance(accountId: string): Promise<string> {
  const listed = await cli(['accounts', 'list', '--json']);
  expect(listed.code).toBe(0);
  return (JSON.parse(listed.stdout) as { id: string; status: string }[]).find((row) => row.id === accountId)!.status;
}

/** Helpers acting as the suite's partner unless another client is given. */
export function subAccountHelpers(partnerOf: () => ApiClient) {
  const subs = (client = partnerOf(), suffix = '') => client.account(`/sub-accounts${suffix}`);

  async function createSub(body: Record<string, unknown> = {}, client = partnerOf()) {
    const created = await client.post(subs(client), { name: unique('Client'), website: 'client.example.com', ...body });
    expect(created.status, created.text).toBe(201);
    return created.body as Record<string, any>;
  }

  /** A child key made by the parent, and a client that acts as the child with it. */
  async function childClient(subId: string, scopes: string[] = ['*'], client = partnerOf()) {
    const created = await client.post(subs(client, `/${subId}/api-keys`), { label: unique('child key'), scopes });
    expect(created.status, created.text).toBe(201);
    return { key: created.body, api: client.with(created.body.secret_key, subId) };
  }

  return { subs, createSub, childClient };
}
