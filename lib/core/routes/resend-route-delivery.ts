import { defineVerb } from '@/lib/core/verb';
import { resendDeliveryOfTarget } from '@/lib/core/webhooks/internal/target-deliveries';
import { getRouteInAccount, recipientDomains } from './internal/queries';
import { routeDeliveryPathSchema } from './schemas';

/** "Send again" for a route's delivery: the same message with the same webhook-id, attempted now. */
export const resendRouteDelivery = defineVerb({
  scope: 'routes:write:{domain}',
  input: routeDeliveryPathSchema,
  domains: async ({ db, principal }, input) =>
    recipientDomains((await getRouteInAccount(db, principal.targetAccountId, input.route_id)).recipient),
  async run(ctx, input) {
    const route = await getRouteInAccount(ctx.db, ctx.principal.targetAccountId, input.route_id);
    return resendDeliveryOfTarget(
      ctx,
      ctx.principal.targetAccountId,
      { kind: 'route', id: route.id, isEnabled: route.enabled },
      input.delivery_id,
    );
  },
});
