import type { Page } from '@/lib/core/shared/pagination';
import { createWebhook } from '@/lib/core/webhooks/create-webhook';
import { deleteWebhook } from '@/lib/core/webhooks/delete-webhook';
import { getWebhook } from '@/lib/core/webhooks/get-webhook';
import { listWebhooks } from '@/lib/core/webhooks/list-webhooks';
import {
  createdWebhookSchema,
  createWebhookSchema,
  listWebhooksQuerySchema,
  triggerWebhookResponseSchema,
  triggerWebhookSchema,
  updateWebhookSchema,
  webhookSchema,
} from '@/lib/core/webhooks/schemas';
import { triggerWebhook } from '@/lib/core/webhooks/trigger-webhook';
import { updateWebhook } from '@/lib/core/webhooks/update-webhook';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/webhooks' as const;
const item = `${collection}/{webhook_id}` as const;
const tags = ['Webhooks'];

export const webhookEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listWebhooks,
    status: 200,
    summary: 'List webhooks',
    tags,
    query: listWebhooksQuerySchema,
    response: listEnvelopeSchema(webhookSchema, 'PaginatedWebhooksResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createWebhook,
    status: 201,
    summary: 'Create webhook',
    tags,
    body: createWebhookSchema,
    response: createdWebhookSchema,
    input: ({ body }) => body,
    // As API-key creation: the stored replay is encrypted and replays only to the credential that made it.
    idempotency: 'secret',
    isSecretBearing: true,
  },
  { method: 'get', path: item, verb: getWebhook, status: 200, summary: 'Get webhook', tags, response: webhookSchema },
  {
    method: 'put',
    path: item,
    verb: updateWebhook,
    status: 200,
    summary: 'Update webhook',
    tags,
    body: updateWebhookSchema,
    response: webhookSchema,
    input: ({ body, params }) => ({ ...body, webhook_id: params.webhook_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteWebhook,
    status: 200,
    summary: 'Delete webhook',
    tags,
    response: successResponseSchema,
  },
  {
    method: 'post',
    path: `${item}/trigger` as const,
    verb: triggerWebhook,
    status: 200,
    summary: 'Send sample events of the chosen types to the webhook (used by the AhaSend CLI)',
    tags,
    body: triggerWebhookSchema,
    response: triggerWebhookResponseSchema,
    input: ({ body, params }) => ({ ...body, webhook_id: params.webhook_id }),
    isExtension: true,
  },
] satisfies Endpoint[];
