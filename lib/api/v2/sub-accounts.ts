import { apiKeySchema, createApiKeySchema, createdApiKeySchema, updateApiKeySchema } from '@/lib/core/api-keys/schemas';
import { pageQuerySchema, type Page } from '@/lib/core/shared/pagination';
import { createSubAccountApiKey } from '@/lib/core/sub-account-api-keys/create-sub-account-api-key';
import { deleteSubAccountApiKey } from '@/lib/core/sub-account-api-keys/delete-sub-account-api-key';
import { getSubAccountApiKey } from '@/lib/core/sub-account-api-keys/get-sub-account-api-key';
import { listSubAccountApiKeys } from '@/lib/core/sub-account-api-keys/list-sub-account-api-keys';
import { updateSubAccountApiKey } from '@/lib/core/sub-account-api-keys/update-sub-account-api-key';
import { createSubAccount } from '@/lib/core/sub-accounts/create-sub-account';
import { deleteSubAccount } from '@/lib/core/sub-accounts/delete-sub-account';
import { getSubAccount } from '@/lib/core/sub-accounts/get-sub-account';
import { getSubAccountsUsage } from '@/lib/core/sub-accounts/get-sub-accounts-usage';
import { listSubAccounts } from '@/lib/core/sub-accounts/list-sub-accounts';
import {
  createSubAccountSchema,
  subAccountSchema,
  subAccountUsageSchema,
  suspendSubAccountSchema,
  updateSubAccountSchema,
} from '@/lib/core/sub-accounts/schemas';
import { suspendSubAccount } from '@/lib/core/sub-accounts/suspend-sub-account';
import { unsuspendSubAccount } from '@/lib/core/sub-accounts/unsuspend-sub-account';
import { unpauseSubAccountDomain } from '@/lib/core/sub-accounts/unpause-sub-account-domain';
import { updateSubAccount } from '@/lib/core/sub-accounts/update-sub-account';
import { domainSchema } from '@/lib/core/domains/schemas';
import type { Endpoint } from '../endpoint';
import { paginatedApiKeysSchema } from './api-keys';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

// `{account_id}` is always the parent: its key (or member session) manages the child named by `{sub_account_id}`.
const collection = '/v2/accounts/{account_id}/sub-accounts' as const;
const item = `${collection}/{sub_account_id}` as const;
const keys = `${item}/api-keys` as const;
const key = `${keys}/{key_id}` as const;
const tags = ['Sub Accounts'];

/** Usage comes before `{sub_account_id}`, so that `/sub-accounts/usage` is never read as an id. */
export const subAccountEndpoints = [
  {
    method: 'get',
    path: `${collection}/usage` as const,
    verb: getSubAccountsUsage,
    status: 200,
    summary: 'Get sub-account usage',
    description:
      'The current billing period is the UTC calendar month. This instance issues no invoice, so allocated_cost is 0.',
    tags,
    response: subAccountUsageSchema,
    input: () => ({}),
  },
  {
    method: 'get',
    path: collection,
    verb: listSubAccounts,
    status: 200,
    summary: 'List sub accounts',
    tags,
    query: pageQuerySchema,
    response: listEnvelopeSchema(subAccountSchema, 'PaginatedSubAccountsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createSubAccount,
    status: 201,
    summary: 'Create sub account',
    description: 'Only a partner-tier account that is not itself a sub account may have sub accounts (403 otherwise).',
    tags,
    body: createSubAccountSchema,
    response: subAccountSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
  },
  {
    method: 'get',
    path: item,
    verb: getSubAccount,
    status: 200,
    summary: 'Get sub account',
    tags,
    response: subAccountSchema,
    input: ({ params }) => ({ sub_account_id: params.sub_account_id }),
  },
  {
    method: 'put',
    path: item,
    verb: updateSubAccount,
    status: 200,
    summary: 'Update sub account',
    tags,
    body: updateSubAccountSchema,
    response: subAccountSchema,
    input: ({ body, params }) => ({ ...body, sub_account_id: params.sub_account_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteSubAccount,
    status: 200,
    summary: 'Delete sub account',
    tags,
    response: successResponseSchema,
    input: ({ params }) => ({ sub_account_id: params.sub_account_id }),
  },
  {
    method: 'post',
    path: `${item}/suspend` as const,
    verb: suspendSubAccount,
    status: 200,
    summary: 'Suspend sub account',
    tags,
    body: suspendSubAccountSchema,
    response: subAccountSchema,
    input: ({ body, params }) => ({ ...body, sub_account_id: params.sub_account_id }),
  },
  {
    method: 'post',
    path: `${item}/unsuspend` as const,
    verb: unsuspendSubAccount,
    status: 200,
    summary: 'Unsuspend sub account',
    tags,
    response: subAccountSchema,
    input: ({ params }) => ({ sub_account_id: params.sub_account_id }),
  },
  {
    method: 'post',
    path: `${item}/domains/{domain}/unpause` as const,
    verb: unpauseSubAccountDomain,
    status: 200,
    summary: "Unpause a sub account's domain paused for its bounce rate",
    tags,
    response: domainSchema,
    input: ({ params }) => ({ sub_account_id: params.sub_account_id, domain: params.domain }),
    isExtension: true,
  },
  {
    method: 'get',
    path: keys,
    verb: listSubAccountApiKeys,
    status: 200,
    summary: 'List sub-account API keys',
    tags,
    query: pageQuerySchema,
    response: paginatedApiKeysSchema,
    input: ({ query, params }) => ({ ...query, sub_account_id: params.sub_account_id }),
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: keys,
    verb: createSubAccountApiKey,
    status: 201,
    summary: 'Create sub-account API key',
    tags,
    body: createApiKeySchema,
    response: createdApiKeySchema,
    input: ({ body, params }) => ({ ...body, sub_account_id: params.sub_account_id }),
    idempotency: 'secret',
    isSecretBearing: true,
  },
  {
    method: 'get',
    path: key,
    verb: getSubAccountApiKey,
    status: 200,
    summary: 'Get sub-account API key',
    tags,
    response: apiKeySchema,
    input: ({ params }) => ({ sub_account_id: params.sub_account_id, key_id: params.key_id }),
  },
  {
    method: 'put',
    path: key,
    verb: updateSubAccountApiKey,
    status: 200,
    summary: 'Update sub-account API key',
    tags,
    body: updateApiKeySchema,
    response: apiKeySchema,
    input: ({ body, params }) => ({ ...body, sub_account_id: params.sub_account_id, key_id: params.key_id }),
  },
  {
    method: 'delete',
    path: key,
    verb: deleteSubAccountApiKey,
    status: 200,
    summary: 'Delete sub-account API key',
    tags,
    response: successResponseSchema,
    input: ({ params }) => ({ sub_account_id: params.sub_account_id, key_id: params.key_id }),
  },
] satisfies Endpoint[];
