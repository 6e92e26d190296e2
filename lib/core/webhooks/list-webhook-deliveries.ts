import { and, eq } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { webhookDeliveries } from '@/lib/db/schema';
import { presentDelivery, type DeliveryRow } from './present';
import { domainsToAuthorize, getWebhookInAccount } from './queries';
import { listDeliveriesQuerySchema } from './schemas';

/** A webhook's delivery log, newest first (dashboard): each event sent, its state and its last attempt. */
export const listWebhookDeliveries = defineVerb({
  scope: 'webhooks:read:{domain}',
  input: listDeliveriesQuerySchema,
  domains: async ({ db, principal }, input) => domainsToAuthorize(principal, 'webhooks:read:{domain}', await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id)),
  async run({ db, principal }, query) {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, query.webhook_id);
    return paginate(db, {
      table: webhookDeliveries,
      idColumn: webhookDeliveries.id,
      where: and(eq(webhookDeliveries.accountId, principal.targetAccountId), eq(webhookDeliveries.webhookId, webhook.row.id)),
      query,
      map: (rows: DeliveryRow[]) => rows.map(presentDelivery),
    });
  },
});
