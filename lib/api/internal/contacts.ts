import { countContacts } from '@/lib/core/contacts/count-contacts';
import { countLists } from '@/lib/core/lists/count-lists';
import { listSubscriptionEvents } from '@/lib/core/contacts/list-subscription-events';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/** What the dashboard's contact pages show beyond the v2 API: the totals of contacts and lists, and the subscription history (R3). */
export const contactInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/contact-totals',
    verb: countContacts,
    status: 200,
    summary: "The account's contacts, and how many unsubscribed everywhere, counted now",
    tags: ['Internal'],
    response: anything,
    input: () => ({}),
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/list-totals',
    verb: countLists,
    status: 200,
    summary: "The account's lists, counted now",
    tags: ['Internal'],
    response: anything,
    input: () => ({}),
    isHiddenFromDocument: true,
  },
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
