import { defineVerb } from '@/lib/core/verb';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { deliveryPathSchema } from './schemas';
import { resendDeliveryOfTarget } from './internal/target-deliveries';

/** "Send again" for a webhook's delivery: the same event with the same webhook-id, attempted now. */
export const resendWebhookDelivery = defineVerb({
  scope: 'webhooks:write:{domain}',
  input: deliveryPathSchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'webhooks:write:{domain}',
      await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id),
    ),
  async run(ctx, input) {
    const webhook = await getWebhookInAccount(ctx.db, ctx.principal.targetAccountId, input.webhook_id);
    return resendDeliveryOfTarget(
      ctx,
      ctx.principal.targetAccountId,
      { kind: 'webhook', id: webhook.row.id, isEnabled: webhook.row.enabled },
      input.delivery_id,
    );
  },
});
