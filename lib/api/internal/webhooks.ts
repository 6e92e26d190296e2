import type { Page } from '@/lib/core/shared/pagination';
import { getWebhookDelivery } from '@/lib/core/webhooks/get-webhook-delivery';
import { listWebhookDeliveries } from '@/lib/core/webhooks/list-webhook-deliveries';
import { resendWebhookDelivery } from '@/lib/core/webhooks/resend-webhook-delivery';
import { listDeliveriesQuerySchema } from '@/lib/core/webhooks/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';
import { presentPage } from '../pagination';

const anything = z.object({}).passthrough();
const deliveries = '/internal/accounts/{account_id}/webhooks/{webhook_id}/deliveries';
const tags = ['Internal'];

/** The delivery log of a webhook and "send again", for the dashboard (session only). */
export const webhookInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: deliveries,
    verb: listWebhookDeliveries,
    status: 200,
    summary: "A webhook's deliveries, newest first",
    tags,
    query: listDeliveriesQuerySchema.omit({ webhook_id: true }),
    response: anything,
    input: ({ query, params }) => ({ ...query, webhook_id: params.webhook_id }),
    present: (page: Page<unknown>) => presentPage(page),
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: `${deliveries}/{delivery_id}`,
    verb: getWebhookDelivery,
    status: 200,
    summary: 'One delivery with every attempt and the body it sends',
    tags,
    response: anything,
    input: ({ params }) => ({ webhook_id: params.webhook_id, delivery_id: params.delivery_id }),
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: `${deliveries}/{delivery_id}/resend`,
    verb: resendWebhookDelivery,
    status: 202,
    summary: 'Send a delivery again now (same webhook-id)',
    tags,
    response: anything,
    input: ({ params }) => ({ webhook_id: params.webhook_id, delivery_id: params.delivery_id }),
    isHiddenFromDocument: true,
  },
];
