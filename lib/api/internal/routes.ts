import { getRouteDelivery } from '@/lib/core/routes/get-route-delivery';
import { listRouteDeliveries } from '@/lib/core/routes/list-route-deliveries';
import { resendRouteDelivery } from '@/lib/core/routes/resend-route-delivery';
import type { Endpoint } from '../endpoint';
import { deliveryLogEndpoints } from './delivery-log';

/** The delivery log of an inbound route and "send again", for the dashboard (session only). */
export const routeInternalEndpoints: Endpoint[] = deliveryLogEndpoints('route', {
  list: listRouteDeliveries,
  get: getRouteDelivery,
  resend: resendRouteDelivery,
});
