import { defineVerb } from '@/lib/core/verb';
import { describeDeliveryOfTarget } from '@/lib/core/webhooks/internal/target-deliveries';
import { getRouteInAccount, recipientDomains } from './internal/queries';
import { routeDeliveryPathSchema } from './schemas';

/** One delivery of a route with every attempt and the message.routing body it sends (dashboard). */
export const getRouteDelivery = defineVerb({
  scope: 'routes:read:{domain}',
  input: routeDeliveryPathSchema,
  domains: async ({ db, principal }, input) =>
    recipientDomains((await getRouteInAccount(db, principal.targetAccountId, input.route_id)).recipient),
  async run({ db, principal }, input) {
    const route = await getRouteInAccount(db, principal.targetAccountId, input.route_id);
    return describeDeliveryOfTarget(db, principal.targetAccountId, { kind: 'route', id: route.id }, input.delivery_id);
  },
});
