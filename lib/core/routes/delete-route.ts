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
  async run({ db, principal }, input) {
    const [row] = await db
      .delete(routes)
      .where(and(eq(routes.accountId, principal.targetAccountId), eq(routes.id, input.route_id)))
      .returning({ id: routes.id, name: routes.name });
    if (!row) throw notFound('route not found');
    return { message: `route ${row.id} (${row.name}) deleted successfully` };
  },
});
