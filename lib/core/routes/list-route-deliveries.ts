import { defineVerb } from '@/lib/core/verb';
import { listDeliveriesOfTarget } from '@/lib/core/webhooks/internal/target-deliveries';
import { getRouteInAccount, recipientDomains } from './internal/queries';
import { listRouteDeliveriesQuerySchema } from './schemas';

/** A route's delivery log, newest first (dashboard): each message sent, its state and its last attempt. */
export const listRouteDeliveries = defineVerb({
  scope: 'routes:read:{domain}',
  input: listRouteDeliveriesQuerySchema,
  domains: async ({ db, principal }, input) =>
    recipientDomains((await getRouteInAccount(db, principal.targetAccountId, input.route_id)).recipient),
  async run({ db, principal }, query) {
    const route = await getRouteInAccount(db, principal.targetAccountId, query.route_id);
    return listDeliveriesOfTarget(db, principal.targetAccountId, { kind: 'route', id: route.id }, query);
  },
});
