import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { routes } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { getRouteInAccount, recipientDomains } from './internal/queries';
import { routePathSchema } from './schemas';

/** Removes a route; its deliveries not yet made are dropped with it (the outbox rows cascade). */
export const deleteRoute = defineVerb({
  scope: 'routes:delete:{domain}',
  input: routePathSchema,
  domains: async ({ db, principal }, input) =>
    recipientDomains((await getRouteInAccount(db, principal.targetAccountId, input.route_id)).recipient),
  async run(ctx, input) {
    const { db, principal } = ctx;
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .delete(routes)
        .where(and(eq(routes.accountId, principal.targetAccountId), eq(routes.id, input.route_id)))
        .returning({ id: routes.id, name: routes.name });
      if (!changed) throw notFound('route not found');
      await recordAuditEvent(tx, ctx, { action: 'route.delete', resource: { type: 'route', id: changed.id } });
      return changed;
    });
    return { message: `route ${row.id} (${row.name}) deleted successfully` };
  },
});
