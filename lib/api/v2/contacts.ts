import { createContact } from '@/lib/core/contacts/create-contact';
import { deleteContact } from '@/lib/core/contacts/delete-contact';
import { getContact } from '@/lib/core/contacts/get-contact';
import { listContactLists } from '@/lib/core/contacts/list-contact-lists';
import { listContacts } from '@/lib/core/contacts/list-contacts';
import { resubscribeContact } from '@/lib/core/contacts/resubscribe-contact';
import {
  contactListsQuerySchema,
  contactSchema,
  createContactSchema,
  listContactsQuerySchema,
  updateContactSchema,
} from '@/lib/core/contacts/schemas';
import { unsubscribeContact } from '@/lib/core/contacts/unsubscribe-contact';
import { updateContact } from '@/lib/core/contacts/update-contact';
import { listMembershipSchema } from '@/lib/core/lists/schemas';
import type { Page } from '@/lib/core/shared/pagination';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/**
 * Contacts (marketing-api.md; R1-R5). `/contacts/import...` is contact-imports.ts and
 * `/contacts/export...` contact-exports.ts, registered first: `{id_or_email}` = `import` or `export`
 * is neither an id nor an address, so any other method on it is a 404 here, never a contact.
 */
const collection = '/v2/accounts/{account_id}/contacts' as const;
const item = `${collection}/{id_or_email}` as const;
const tags = ['Contacts'];
const params = ({ params }: { params: Record<string, string> }) => ({ id_or_email: params.id_or_email });

const ID_OR_EMAIL =
  '`{id_or_email}` is the contact id or its email address percent-encoded once as a path segment (R5): `a+b@x.com` is sent as `a%2Bb%40x.com` and decoded exactly once; the address is matched trimmed and lowercased. Anything that is neither is 404.';
const R2 = 'Never creates, changes or removes a suppression of any kind (R2).';

export const contactEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listContacts,
    status: 200,
    summary: 'List contacts',
    description:
      'Newest first, cursor-paginated. `email` matches one normalised address exactly; `search`, `list_id` and `attribute_key`/`attribute_value` are Mailstead extensions for the dashboard.',
    tags,
    query: listContactsQuerySchema,
    response: listEnvelopeSchema(contactSchema, 'PaginatedContactsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createContact,
    status: 201,
    summary: 'Create a contact',
    description: `The email is trimmed and lowercased; one the account already has is 409 (parallel creates of one address make one contact). The contact joins no list (R1). Attributes must be defined for the account and canonical (R4): 400 naming the key otherwise. Idempotency-Key is supported (a Mailstead extension). ${R2}`,
    tags,
    body: createContactSchema,
    response: contactSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
  },
  {
    method: 'get',
    path: item,
    verb: getContact,
    status: 200,
    summary: 'Get a contact by id or email',
    description: `${ID_OR_EMAIL} Attributes are returned as stored, nested JSON included (R4).`,
    tags,
    response: contactSchema,
    input: params,
  },
  {
    method: 'put',
    path: item,
    verb: updateContact,
    status: 200,
    summary: 'Update a contact',
    description: `Partial update: omitted fields stay unchanged; null or "" clears a name; \`attributes\` is merged (given keys replaced, null removes a key); \`unsubscribed\` works as the unsubscribe/resubscribe endpoints, history included. A new email another contact has is 409. ${ID_OR_EMAIL} ${R2}`,
    tags,
    body: updateContactSchema,
    response: contactSchema,
    input: ({ body, params }) => ({ ...body, id_or_email: params.id_or_email }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteContact,
    status: 200,
    summary: 'Delete a contact',
    description: `Removes the contact and its memberships in every list (deleted lists included). Its subscription history is kept. To only stop marketing mail, unsubscribe instead (R3). ${ID_OR_EMAIL} ${R2}`,
    tags,
    response: successResponseSchema,
    input: params,
  },
  {
    method: 'post',
    path: `${item}/unsubscribe` as const,
    verb: unsubscribeContact,
    status: 200,
    summary: 'Unsubscribe a contact from all marketing mail',
    description: `Sets \`unsubscribed\` true and \`unsubscribed_at\`, and records the change in the contact's history (R3). Already unsubscribed: 200, nothing changes. List memberships keep their own status (R7). ${R2}`,
    tags,
    response: contactSchema,
    input: params,
  },
  {
    method: 'post',
    path: `${item}/resubscribe` as const,
    verb: resubscribeContact,
    status: 200,
    summary: 'Resubscribe a contact',
    description: `Reverses an unsubscribe (\`unsubscribed\` false, \`unsubscribed_at\` null) and records it in the history (R3). Not unsubscribed: 200, nothing changes. A suppression of the address still applies (R2).`,
    tags,
    response: contactSchema,
    input: params,
  },
  {
    method: 'get',
    path: `${item}/lists` as const,
    verb: listContactLists,
    status: 200,
    summary: "A contact's list memberships",
    description: `Every membership of the contact with its per-list status, including memberships of deleted lists (R10), newest list first, cursor-paginated. Needs lists:read. ${ID_OR_EMAIL}`,
    tags,
    query: contactListsQuerySchema,
    response: listEnvelopeSchema(listMembershipSchema, 'PaginatedContactMembershipsResponse'),
    input: ({ query, params }) => ({ ...query, id_or_email: params.id_or_email }),
    present: (page: Page<unknown>) => presentPage(page),
  },
] satisfies Endpoint[];
