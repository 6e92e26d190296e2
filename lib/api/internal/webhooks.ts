import { getWebhookDelivery } from '@/lib/core/webhooks/get-webhook-delivery';
import { listWebhookDeliveries } from '@/lib/core/webhooks/list-webhook-deliveries';
import { resendWebhookDelivery } from '@/lib/core/webhooks/resend-webhook-delivery';
import type { Endpoint } from '../endpoint';
import { deliveryLogEndpoints } from './delivery-log';

/** The delivery log of a webhook and "send again", for the dashboard (session only). */
export const webhookInternalEndpoints: Endpoint[] = deliveryLogEndpoints('webhook', {
  list: listWebhookDeliveries,
  get: getWebhookDelivery,
  resend: resendWebhookDelivery,
});
