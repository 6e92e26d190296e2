import { getAccount } from '@/lib/core/accounts/get-account';
import { accountSchema, updateAccountSchema } from '@/lib/core/accounts/schemas';
import { updateAccount } from '@/lib/core/accounts/update-account';
import type { Endpoint } from '../endpoint';

const path = '/v2/accounts/{account_id}' as const;

export const accountEndpoints = [
  {
    method: 'get',
    path,
    verb: getAccount,
    status: 200,
    summary: 'Get account',
    tags: ['Accounts'],
    response: accountSchema,
  },
  {
    method: 'put',
    path,
    verb: updateAccount,
    status: 200,
    summary: 'Update account',
    tags: ['Accounts'],
    body: updateAccountSchema,
    response: accountSchema,
    input: ({ body }) => body,
  },
] satisfies Endpoint[];
