import { defineVerb } from '@/lib/core/verb';
import { loadDeliveryPayloads } from './load-delivery-payloads';
import { presentDelivery } from './present';
import { domainsToAuthorize, getDeliveryInAccount, getWebhookInAccount } from './queries';
import { deliveryPathSchema } from './schemas';

/** One delivery with every attempt and the body it sends (dashboard). */
export const getWebhookDelivery = defineVerb({
  scope: 'webhooks:read:{domain}',
  input: deliveryPathSchema,
  domains: async ({ db, principal }, input) => domainsToAuthorize(principal, 'webhooks:read:{domain}', await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id)),
  async run({ db, principal }, input) {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id);
    const row = await getDeliveryInAccount(db, principal.targetAccountId, webhook.row.id, input.delivery_id);
    const payload = (await loadDeliveryPayloads(db, [row])).get(row.id) ?? null;
    return { ...presentDelivery(row), attempts_log: row.attemptLog, payload };
  },
});
