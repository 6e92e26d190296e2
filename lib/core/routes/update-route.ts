import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { cancelPendingDeliveries } from '@/lib/core/webhooks/cancel-pending-deliveries';
import { checkWebhookUrl } from '@/lib/core/webhooks/internal/check-webhook-url';
import { defineVerb } from '@/lib/core/verb';
import { routes } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { presentRoute } from './internal/present';
import { getRouteInAccount, recipientDomains, resolveRouteRecipient } from './internal/queries';
import { routeIdSchema, updateRouteSchema } from './schemas';

/**
 * Partial update: null or omitted fields stay; `recipient: ""` clears the filter. Both the route's
 * domain and a new one must be authorised (the contract's rule); a pattern without a domain, before
 * or after, needs `routes:write:all`. Re-enabling clears an automatic disable and its run of
 * failures; disabling ends the deliveries still waiting.
 */
export const updateRoute = defineVerb({
  scope: 'routes:write:{domain}',
  input: updateRouteSchema.extend({ route_id: routeIdSchema }),
  domains: async ({ db, principal }, input) => {
    const route = await getRouteInAccount(db, principal.targetAccountId, input.route_id);
    const before = recipientDomains(route.recipient);
    const after = input.recipient != null ? recipientDomains(input.recipient) : before;
    if (before.length === 0 || after.length === 0) return [];
    return [...new Set([...before, ...after])];
  },
  async run(services, input) {
    const { db, principal, now } = services;
    const accountId = principal.targetAccountId;
    const route = await getRouteInAccount(db, accountId, input.route_id);
    const url = input.url != null ? await checkWebhookUrl(services, input.url) : undefined;
    const target = input.recipient != null ? await resolveRouteRecipient(db, accountId, input.recipient) : undefined;
    const at = now();
    const isEnabling = input.enabled === true && !route.enabled;
    const isDisabling = input.enabled === false && route.enabled;
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(routes)
        .set({
          ...(input.name != null ? { name: input.name } : {}),
          ...(url !== undefined ? { url } : {}),
          ...(target !== undefined ? { recipient: target.recipient, domain: target.domain } : {}),
          ...(input.attachments != null ? { attachments: input.attachments } : {}),
          ...(input.headers != null ? { headers: input.headers } : {}),
          ...(input.group_by_message_id != null ? { groupByMessageId: input.group_by_message_id } : {}),
          ...(input.strip_replies != null ? { stripReplies: input.strip_replies } : {}),
          ...(input.enabled != null ? { enabled: input.enabled } : {}),
          ...(isEnabling
            ? { errorsSinceLastSuccess: 0, failingSince: null, disabledReason: null, disabledAt: null }
            : {}),
          // A new URL, or a fresh start, is tried at once rather than after the old endpoint's backoff.
          ...(isEnabling || url !== undefined ? { nextAttemptAt: null } : {}),
          updatedAt: at,
        })
        .where(and(eq(routes.accountId, accountId), eq(routes.id, route.id)))
        .returning();
      if (!row) throw notFound('route not found');
      if (isDisabling)
        await cancelPendingDeliveries(tx, { kind: 'route', id: row.id }, 'not sent: the route was disabled', at);
      await recordAuditEvent(tx, services, {
        action: 'route.update',
        resource: { type: 'route', id: row.id },
        changes: givenFields(input, ['route_id']),
      });
      return presentRoute(row);
    });
  },
});
