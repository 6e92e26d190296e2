import type { Page } from '@/lib/core/shared/pagination';
import { createSuppression } from '@/lib/core/suppressions/create-suppression';
import { deleteSuppression } from '@/lib/core/suppressions/delete-suppression';
import { listSuppressions } from '@/lib/core/suppressions/list-suppressions';
import {
  createSuppressionResponseSchema,
  createSuppressionSchema,
  deleteSuppressionQuerySchema,
  listSuppressionsQuerySchema,
  suppressionSchema,
  wipeSuppressionsQuerySchema,
} from '@/lib/core/suppressions/schemas';
import { wipeSuppressions } from '@/lib/core/suppressions/wipe-suppressions';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/suppressions' as const;
const tags = ['Suppressions'];

export const suppressionEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listSuppressions,
    status: 200,
    summary: 'List suppressions in force',
    tags,
    query: listSuppressionsQuerySchema,
    response: listEnvelopeSchema(suppressionSchema, 'PaginatedSuppressionsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createSuppression,
    status: 201,
    summary: 'Suppress an address (for one domain, or all of them)',
    tags,
    body: createSuppressionSchema,
    response: createSuppressionResponseSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
  },
  {
    method: 'delete',
    path: collection,
    verb: deleteSuppression,
    status: 200,
    summary: 'Delete the suppressions of an address',
    tags,
    query: deleteSuppressionQuerySchema,
    response: successResponseSchema,
    input: ({ query }) => query,
  },
  {
    method: 'delete',
    path: `${collection}/all` as const,
    verb: wipeSuppressions,
    status: 200,
    summary: 'Delete every suppression except protected ones',
    tags,
    query: wipeSuppressionsQuerySchema,
    response: successResponseSchema,
    input: ({ query }) => query,
  },
] satisfies Endpoint[];
