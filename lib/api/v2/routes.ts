import type { Page } from '@/lib/core/shared/pagination';
import { createRoute } from '@/lib/core/routes/create-route';
import { deleteRoute } from '@/lib/core/routes/delete-route';
import { getRoute } from '@/lib/core/routes/get-route';
import { listRoutes } from '@/lib/core/routes/list-routes';
import {
  createdRouteSchema,
  createRouteSchema,
  listRoutesQuerySchema,
  routeSchema,
  triggerRouteSchema,
  updateRouteSchema,
} from '@/lib/core/routes/schemas';
import { triggerRoute } from '@/lib/core/routes/trigger-route';
import { updateRoute } from '@/lib/core/routes/update-route';
import { triggerWebhookResponseSchema } from '@/lib/core/webhooks/schemas';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/routes' as const;
const item = `${collection}/{route_id}` as const;
const tags = ['Routes'];

export const routeEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listRoutes,
    status: 200,
    summary: 'List routes',
    description: 'A domain-scoped key (`routes:read:{domain}`) must pass `?domain=` naming one of its domains.',
    tags,
    query: listRoutesQuerySchema,
    response: listEnvelopeSchema(routeSchema, 'PaginatedRoutesResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createRoute,
    status: 201,
    summary: 'Create route',
    tags,
    body: createRouteSchema,
    response: createdRouteSchema,
    input: ({ body }) => body,
    // As webhooks: the stored replay is encrypted and replays only to the credential that made it.
    idempotency: 'secret',
    isSecretBearing: true,
  },
  { method: 'get', path: item, verb: getRoute, status: 200, summary: 'Get route', tags, response: routeSchema },
  {
    method: 'put',
    path: item,
    verb: updateRoute,
    status: 200,
    summary: 'Update route',
    tags,
    body: updateRouteSchema,
    response: routeSchema,
    input: ({ body, params }) => ({ ...body, route_id: params.route_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteRoute,
    status: 200,
    summary: 'Delete route',
    tags,
    response: successResponseSchema,
  },
  {
    method: 'post',
    path: `${item}/trigger` as const,
    verb: triggerRoute,
    status: 200,
    summary: 'Send a sample message.routing event to the route (used by the AhaSend CLI)',
    tags,
    body: triggerRouteSchema,
    response: triggerWebhookResponseSchema,
    input: ({ params }) => ({ route_id: params.route_id }),
    isExtension: true,
  },
] satisfies Endpoint[];
