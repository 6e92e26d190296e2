import { listSubscriptionEvents } from '@/lib/core/contacts/list-subscription-events';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/** What the dashboard's contact page shows beyond the v2 API: the subscription history (R3). */
export const contactInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/contacts/{id_or_email}/subscription-events',
    verb: listSubscriptionEvents,
    status: 200,
    summary: "A contact's subscription history (R3), newest first",
    tags: ['Internal'],
    response: anything,
    input: ({ params }) => ({ id_or_email: params.id_or_email }),
    isHiddenFromDocument: true,
  },
];
