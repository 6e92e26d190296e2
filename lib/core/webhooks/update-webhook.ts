import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { webhookDomains, webhooks } from '@/lib/db/schema';
import { invalidInput, notFound } from '@/lib/shared/errors';
import { cancelPendingDeliveries } from './cancel-pending-deliveries';
import { checkWebhookUrl } from './internal/check-webhook-url';
import { flagColumns } from './fan-out';
import { presentWebhook } from './internal/present';
import { domainsToAuthorize, getWebhookInAccount } from './internal/queries';
import { updateWebhookSchema, webhookIdSchema } from './schemas';
import { normalizeWebhookDomains, resolveWebhookDomains } from './internal/webhook-domains';

/**
 * Partial update: null or omitted fields stay. Scope transitions as the contract has them: to
 * `scoped` from global needs a non-empty `domains` in the same request; to `global` clears the
 * domains. A global webhook, before or after, needs `webhooks:write:all`; a scoped key must hold one
 * of the webhook's domains and every domain it sets. The secret cannot change. Re-enabling clears an
 * automatic disable and its run of failures; disabling ends the deliveries still waiting.
 */
export const updateWebhook = defineVerb({
  scope: 'webhooks:write:{domain}',
  input: updateWebhookSchema.extend({ webhook_id: webhookIdSchema }),
  domains: async ({ db, principal }, input) => {
    const webhook = await getWebhookInAccount(db, principal.targetAccountId, input.webhook_id);
    if (webhook.row.scope === 'global' || (input.scope ?? webhook.row.scope) === 'global') return [];
    return [
      ...new Set([
        ...domainsToAuthorize(principal, 'webhooks:write:{domain}', webhook),
        ...normalizeWebhookDomains(input.domains ?? []),
      ]),
    ];
  },
  async run(services, input) {
    const { db, principal, now } = services;
    const accountId = principal.targetAccountId;
    const webhook = await getWebhookInAccount(db, accountId, input.webhook_id);
    const scope = input.scope ?? webhook.row.scope;

    // null: the domains stay as they are.
    let domains: string[] | null = null;
    if (scope === 'global') domains = webhook.row.scope === 'global' ? null : [];
    else if (webhook.row.scope === 'global' && !input.domains?.length) {
      throw invalidInput(
        'domains: changing scope to "scoped" needs a non-empty domains array in the same request',
        'domains',
      );
    } else if (input.domains != null) domains = await resolveWebhookDomains(db, accountId, input.domains);
    const url = input.url != null ? await checkWebhookUrl(services, input.url) : undefined;

    const at = now();
    const isEnabling = input.enabled === true && !webhook.row.enabled;
    const isDisabling = input.enabled === false && webhook.row.enabled;
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(webhooks)
        .set({
          ...(input.name != null ? { name: input.name } : {}),
          ...(url !== undefined ? { url } : {}),
          scope,
          ...(input.enabled != null ? { enabled: input.enabled } : {}),
          ...(isEnabling
            ? { errorsSinceLastSuccess: 0, failingSince: null, disabledReason: null, disabledAt: null }
            : {}),
          // A new URL, or a fresh start, is tried at once rather than after the old endpoint's backoff.
          ...(isEnabling || url !== undefined ? { nextAttemptAt: null } : {}),
          ...flagColumns(input),
          updatedAt: at,
        })
        .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, webhook.row.id)))
        .returning();
      if (!row) throw notFound('webhook not found');
      if (domains !== null) {
        await tx.delete(webhookDomains).where(eq(webhookDomains.webhookId, row.id));
        if (domains.length > 0)
          await tx.insert(webhookDomains).values(domains.map((domain) => ({ webhookId: row.id, domain })));
      }
      if (isDisabling)
        await cancelPendingDeliveries(tx, { kind: 'webhook', id: row.id }, 'not sent: the webhook was disabled', at);
      await recordAuditEvent(tx, services, {
        action: 'webhook.update',
        resource: { type: 'webhook', id: row.id },
        changes: givenFields(input, ['webhook_id']),
      });
      return presentWebhook(row, domains ?? webhook.domains);
    });
  },
});
