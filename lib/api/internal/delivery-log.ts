import type { Page } from '@/lib/core/shared/pagination';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import type { Verb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';
import { presentPage } from '../pagination';

const anything = z.object({}).passthrough();
const tags = ['Internal'];
type AnyVerb = Verb<z.ZodType, unknown>;

/**
 * The delivery log of a webhook or a route and "send again", for the dashboard (session only):
 * `/internal/accounts/{account_id}/{webhooks|routes}/{id}/deliveries[/{delivery_id}[/resend]]`.
 * Both are rows of one outbox; each resource's verbs check its own scopes.
 */
export function deliveryLogEndpoints(
  resource: 'webhook' | 'route',
  verbs: { list: AnyVerb; get: AnyVerb; resend: AnyVerb },
): Endpoint[] {
  const idParam = `${resource}_id`;
  const deliveries = `/internal/accounts/{account_id}/${resource}s/{${idParam}}/deliveries`;
  const ofPath = (params: Record<string, string>) => ({ [idParam]: params[idParam], delivery_id: params.delivery_id });
  return [
    {
      method: 'get',
      path: deliveries,
      verb: verbs.list,
      status: 200,
      summary: `A ${resource}'s deliveries, newest first`,
      tags,
      query: pageQuerySchema,
      response: anything,
      input: ({ query, params }) => ({ ...query, [idParam]: params[idParam] }),
      present: (page: Page<unknown>) => presentPage(page),
      isHiddenFromDocument: true,
    },
    {
      method: 'get',
      path: `${deliveries}/{delivery_id}`,
      verb: verbs.get,
      status: 200,
      summary: 'One delivery with every attempt and the body it sends',
      tags,
      response: anything,
      input: ({ params }) => ofPath(params),
      isHiddenFromDocument: true,
    },
    {
      method: 'post',
      path: `${deliveries}/{delivery_id}/resend`,
      verb: verbs.resend,
      status: 202,
      summary: 'Send a delivery again now (same webhook-id)',
      tags,
      response: anything,
      input: ({ params }) => ofPath(params),
      isHiddenFromDocument: true,
    },
  ];
}
