import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { webhooks } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { webhookPathSchema } from './schemas';

/** Removes a webhook with its domains and delivery log; deliveries not yet made are dropped with it. */
export const deleteWebhook = defineVerb({
  scope: 'webhooks:delete:{domain}',
  input: webhookPathSchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'webhooks:delete:{domain}',
      await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id),
    ),
  async run(ctx, input) {
    const { db, principal } = ctx;
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .delete(webhooks)
        .where(and(eq(webhooks.accountId, principal.targetAccountId), eq(webhooks.id, input.webhook_id)))
        .returning({ id: webhooks.id, name: webhooks.name });
      if (!changed) throw notFound('webhook not found');
      await recordAuditEvent(tx, ctx, { action: 'webhook.delete', resource: { type: 'webhook', id: changed.id } });
      return changed;
    });
    return { message: `webhook ${row.id} (${row.name}) deleted successfully` };
  },
});
