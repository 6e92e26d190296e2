import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { checkWebhookUrl } from '@/lib/core/webhooks/internal/check-webhook-url';
import { generateWebhookSecret } from '@/lib/core/webhooks/create-webhook';
import { defineVerb } from '@/lib/core/verb';
import { routes } from '@/lib/db/schema';
import { presentRoute } from './internal/present';
import { recipientDomains, resolveRouteRecipient } from './internal/queries';
import { createRouteSchema } from './schemas';

export const ROUTE_SECRET_PURPOSE = 'route-secret';

/**
 * A route for the domain of its `recipient` (the scope checked); one without a domain (`""`, `*`, a
 * local part alone) covers every domain of the account and needs `routes:write:all`. The URL passes
 * the webhooks' SSRF guard. The response is the only time the secret is shown.
 */
export const createRoute = defineVerb({
  scope: 'routes:write:{domain}',
  input: createRouteSchema,
  domains: (_ctx, input) => recipientDomains(input.recipient),
  async run(services, input) {
    const { db, principal, secrets } = services;
    const accountId = principal.targetAccountId;
    const url = await checkWebhookUrl(services, input.url);
    const { recipient, domain } = await resolveRouteRecipient(db, accountId, input.recipient);
    const secret = generateWebhookSecret();
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(routes)
        .values({
          accountId,
          name: input.name,
          url,
          secretEncrypted: secrets.encrypt(ROUTE_SECRET_PURPOSE, secret),
          recipient,
          domain,
          attachments: input.attachments,
          headers: input.headers,
          groupByMessageId: input.group_by_message_id,
          stripReplies: input.strip_replies,
          enabled: input.enabled,
        })
        .returning();
      await recordAuditEvent(tx, services, { action: 'route.create', resource: { type: 'route', id: changed.id } });
      return changed;
    });
    return { ...presentRoute(row), secret };
  },
});
