import { defineVerb } from '@/lib/core/verb';
import { presentWebhook } from './internal/present';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { webhookPathSchema } from './schemas';

/** One webhook, without its secret; a domain-scoped key needs one of its domains. */
export const getWebhook = defineVerb({
  scope: 'webhooks:read:{domain}',
  input: webhookPathSchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'webhooks:read:{domain}',
      await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id),
    ),
  async run({ db, principal }, input) {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id);
    return presentWebhook(webhook.row, webhook.domains);
  },
});
