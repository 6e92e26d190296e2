import { defineVerb } from '@/lib/core/verb';
import { presentRoute } from './internal/present';
import { getRouteInAccount, recipientDomains } from './internal/queries';
import { routePathSchema } from './schemas';

/** One route, without its secret; a domain-scoped key needs the route's domain. */
export const getRoute = defineVerb({
  scope: 'routes:read:{domain}',
  input: routePathSchema,
  domains: async ({ db, principal }, input) =>
    recipientDomains((await getRouteInAccount(db, principal.targetAccountId, input.route_id)).recipient),
  async run({ db, principal }, input) {
    return presentRoute(await getRouteInAccount(db, principal.targetAccountId, input.route_id));
  },
});
