import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { webhookDeliveries } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { signalWebhookDeliveriesQueued } from './delivery-signal';
import { domainsToAuthorize, getDeliveryInAccount, getWebhookInAccount } from './queries';
import { deliveryPathSchema } from './schemas';

/**
 * "Send again": the same event, with the same webhook-id (receivers de-duplicate on it, and it is the
 * same event), queued for an attempt now with a fresh retry schedule. Not while an attempt is in
 * flight, nor for a disabled webhook.
 */
export const resendWebhookDelivery = defineVerb({
  scope: 'webhooks:write:{domain}',
  input: deliveryPathSchema,
  domains: async ({ db, principal }, input) => domainsToAuthorize(principal, 'webhooks:write:{domain}', await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id)),
  async run({ db, principal, now }, input) {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id);
    const row = await getDeliveryInAccount(db, principal.targetAccountId, webhook.row.id, input.delivery_id);
    if (!webhook.row.enabled && !row.isTest) throw conflict('the webhook is disabled: enable it before sending again');
    const at = now();
    const [queued] = await db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: at, attemptsInRun: 0, updatedAt: at })
      .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.accountId, principal.targetAccountId), or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, at))))
      .returning({ id: webhookDeliveries.id });
    if (!queued) throw conflict('this delivery is being attempted right now; try again in a moment');
    signalWebhookDeliveriesQueued();
    return { message: `delivery ${row.id} of ${row.eventType} queued to be sent again` };
  },
});
