import { defineVerb } from '@/lib/core/verb';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { listDeliveriesQuerySchema } from './schemas';
import { listDeliveriesOfTarget } from './internal/target-deliveries';

/** A webhook's delivery log, newest first (dashboard): each event sent, its state and its last attempt. */
export const listWebhookDeliveries = defineVerb({
  scope: 'webhooks:read:{domain}',
  input: listDeliveriesQuerySchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'webhooks:read:{domain}',
      await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id),
    ),
  async run({ db, principal }, query) {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, query.webhook_id);
    return listDeliveriesOfTarget(db, principal.targetAccountId, { kind: 'webhook', id: webhook.row.id }, query);
  },
});
