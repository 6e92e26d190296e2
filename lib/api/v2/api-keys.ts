import { createApiKey } from '@/lib/core/api-keys/create-api-key';
import { deleteApiKey } from '@/lib/core/api-keys/delete-api-key';
import { getApiKey } from '@/lib/core/api-keys/get-api-key';
import { listApiKeys } from '@/lib/core/api-keys/list-api-keys';
import { apiKeySchema, createApiKeySchema, createdApiKeySchema, updateApiKeySchema } from '@/lib/core/api-keys/schemas';
import { updateApiKey } from '@/lib/core/api-keys/update-api-key';
import { pageQuerySchema, type Page } from '@/lib/core/shared/pagination';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/api-keys' as const;
const item = `${collection}/{key_id}` as const;
const tags = ['API Keys'];

/** Shared with the sub-account key list: one schema of that name in the document. */
export const paginatedApiKeysSchema = listEnvelopeSchema(apiKeySchema, 'PaginatedAPIKeysResponse');

export const apiKeyEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listApiKeys,
    status: 200,
    summary: 'List API keys',
    tags,
    query: pageQuerySchema,
    response: paginatedApiKeysSchema,
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createApiKey,
    status: 201,
    summary: 'Create API key',
    tags,
    body: createApiKeySchema,
    response: createdApiKeySchema,
    input: ({ body }) => body,
    idempotency: 'secret',
    isSecretBearing: true,
  },
  { method: 'get', path: item, verb: getApiKey, status: 200, summary: 'Get API key', tags, response: apiKeySchema },
  {
    method: 'put',
    path: item,
    verb: updateApiKey,
    status: 200,
    summary: 'Update API key',
    tags,
    body: updateApiKeySchema,
    response: apiKeySchema,
    input: ({ body, params }) => ({ ...body, key_id: params.key_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteApiKey,
    status: 200,
    summary: 'Delete API key',
    tags,
    response: successResponseSchema,
  },
] satisfies Endpoint[];
