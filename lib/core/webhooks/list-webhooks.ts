import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { authorizedDomains } from '@/lib/auth/authorize';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { domains, webhookDomains, webhooks } from '@/lib/db/schema';
import { WEBHOOK_EVENTS } from './fan-out';
import { presentWebhook, type WebhookRow } from './internal/present';
import { loadWebhookDomains } from './internal/queries';
import { listWebhooksQuerySchema } from './schemas';

/**
 * The account's webhooks, newest first, filtered by `enabled` and the event flags. A domain-scoped key
 * sees only scoped webhooks with at least one of its domains (global ones need `:all`).
 */
export const listWebhooks = defineVerb({
  scope: 'webhooks:read:{domain}',
  input: listWebhooksQuerySchema,
  async run({ db, principal }, query) {
    const accountId = principal.targetAccountId;
    const conditions: (SQL | undefined)[] = [eq(webhooks.accountId, accountId)];
    if (query.enabled !== undefined) conditions.push(eq(webhooks.enabled, query.enabled === 'true'));
    for (const event of WEBHOOK_EVENTS) {
      const value = query[event.flag];
      if (value !== undefined) conditions.push(eq(webhooks[event.column], value === 'true'));
    }

    const accountDomains = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)));
    const visible = authorizedDomains(
      principal,
      'webhooks:read:{domain}',
      accountDomains.map((row) => row.domain),
    );
    if (visible !== 'all') {
      conditions.push(
        visible.length === 0
          ? sql`false`
          : and(
              eq(webhooks.scope, 'scoped'),
              sql`exists (select 1 from ${webhookDomains} where ${webhookDomains.webhookId} = ${webhooks.id} and ${inArray(webhookDomains.domain, visible)})`,
            ),
      );
    }

    return paginate(db, {
      table: webhooks,
      idColumn: webhooks.id,
      where: and(...conditions),
      query,
      map: async (rows: WebhookRow[]) => {
        const byWebhook = await loadWebhookDomains(
          db,
          rows.map((row) => row.id),
        );
        return rows.map((row) => presentWebhook(row, byWebhook.get(row.id) ?? []));
      },
    });
  },
});
