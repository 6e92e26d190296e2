import { defineVerb } from '@/lib/core/verb';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { deliveryPathSchema } from './schemas';
import { describeDeliveryOfTarget } from './internal/target-deliveries';

/** One delivery with every attempt and the body it sends (dashboard). */
export const getWebhookDelivery = defineVerb({
  scope: 'webhooks:read:{domain}',
  input: deliveryPathSchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'webhooks:read:{domain}',
      await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id),
    ),
  async run({ db, principal }, input) {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id);
    return describeDeliveryOfTarget(
      db,
      principal.targetAccountId,
      { kind: 'webhook', id: webhook.row.id },
      input.delivery_id,
    );
  },
});
