import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import { deleteList } from '@/lib/core/lists/delete-list';
import { getList } from '@/lib/core/lists/get-list';
import { listListMembers } from '@/lib/core/lists/list-list-members';
import { listLists } from '@/lib/core/lists/list-lists';
import { pasteListMembers } from '@/lib/core/lists/paste-list-members';
import { removeListMember } from '@/lib/core/lists/remove-list-member';
import {
  addListMembersResponseSchema,
  addListMembersSchema,
  contactListSchema,
  createListSchema,
  listListsQuerySchema,
  listMembershipSchema,
  listMembersQuerySchema,
  pasteListMembersResponseSchema,
  pasteListMembersSchema,
  updateListMemberSchema,
  updateListSchema,
} from '@/lib/core/lists/schemas';
import { updateList } from '@/lib/core/lists/update-list';
import { updateListMember } from '@/lib/core/lists/update-list-member';
import type { Page } from '@/lib/core/shared/pagination';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/** Lists and memberships (marketing-api.md; R6-R12). */
const collection = '/v2/accounts/{account_id}/lists' as const;
const item = `${collection}/{list_id}` as const;
const members = `${item}/members` as const;
const member = `${members}/{id_or_email}` as const;
const tags = ['Lists'];
const listParams = ({ params }: { params: Record<string, string> }) => ({ list_id: params.list_id });
const memberParams = ({ params }: { params: Record<string, string> }) => ({
  list_id: params.list_id,
  id_or_email: params.id_or_email,
});

const DELETED = 'A deleted list is 404 (R10).';
const COMPLAINED =
  '`complained` is never writable (400) and a complained membership is frozen: any change to it is 409 (R9).';

export const listEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listLists,
    status: 200,
    summary: 'List contact lists',
    description:
      'Newest first, cursor-paginated, each with `member_counts` per status. Deleted lists are left out (R10).',
    tags,
    query: listListsQuerySchema,
    response: listEnvelopeSchema(contactListSchema, 'PaginatedContactListsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createList,
    status: 201,
    summary: 'Create a list',
    description:
      'A static, private, single opt-in list (R6). Names need not be unique. Idempotency-Key is supported (a Mailstead extension).',
    tags,
    body: createListSchema,
    response: contactListSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
  },
  {
    method: 'get',
    path: item,
    verb: getList,
    status: 200,
    summary: 'Get a list',
    description: DELETED,
    tags,
    response: contactListSchema,
    input: listParams,
  },
  {
    method: 'put',
    path: item,
    verb: updateList,
    status: 200,
    summary: 'Update a list',
    description: `Partial update: omitted fields stay; null or "" clears the description. ${DELETED}`,
    tags,
    body: updateListSchema,
    response: contactListSchema,
    input: ({ body, params }) => ({ ...body, list_id: params.list_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteList,
    status: 200,
    summary: 'Delete a list',
    description:
      "The list disappears (every request for it is then 404) but its memberships are kept, so an unsubscribe survives (R10); they still show in a contact's lists.",
    tags,
    response: successResponseSchema,
    input: listParams,
  },
  {
    method: 'get',
    path: members,
    verb: listListMembers,
    status: 200,
    summary: "A list's members",
    description: `Newest contact first, cursor-paginated, filtered by \`subscription_status\`. \`include_contacts=true\` adds each Contact and needs contacts:read in addition to lists:read: 403 without it (R12). ${DELETED}`,
    tags,
    query: listMembersQuerySchema,
    response: listEnvelopeSchema(listMembershipSchema, 'PaginatedListMembershipsResponse'),
    input: ({ query, params }) => ({ ...query, list_id: params.list_id }),
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: members,
    verb: addListMembers,
    status: 201,
    summary: 'Add contacts to a list',
    description: `\`contact\` (id or email) answers with its ListMembership; \`contacts\` (up to 1,000, one statement) answers with \`{"object":"list","data":[...]}\`. New memberships are \`subscription_status\` or \`confirmed\` (R8). A contact already a member keeps its status unless \`subscription_status\` is given, which then sets it too; the answer is 201 either way, and repeating the request is harmless. Any unknown contact is 404 and nothing is added. A contact's account-wide \`unsubscribed\` flag is independent (R7). ${COMPLAINED} ${DELETED}`,
    tags,
    body: addListMembersSchema,
    response: addListMembersResponseSchema,
    input: ({ body, params }) => ({ ...body, list_id: params.list_id }),
  },
  {
    method: 'post',
    path: `${members}/paste` as const,
    verb: pasteListMembers,
    status: 200,
    summary: 'Add pasted addresses to a list, line by line (Mailstead extension)',
    description: `Up to 1,000 \`lines\` (emails or contact ids). Each valid line is added and every other one is answered in \`refused\` with its reason: \`not an email address\`, \`suppressed\` (an account-wide suppression), \`already a member\` (its status is left as it is), \`no such contact\` (only without \`create_missing\`). \`create_missing: true\` makes a contact of each unknown address first and needs contacts:write as well as lists:write. ${DELETED}`,
    tags,
    body: pasteListMembersSchema,
    response: pasteListMembersResponseSchema,
    input: ({ body, params }) => ({ ...body, list_id: params.list_id }),
  },
  {
    method: 'put',
    path: member,
    verb: updateListMember,
    status: 200,
    summary: "Set a member's subscription status",
    description: `${COMPLAINED} A contact that is not a member is 404. \`{id_or_email}\` as in the contacts API (percent-encoded once, R5).`,
    tags,
    body: updateListMemberSchema,
    response: listMembershipSchema,
    input: ({ body, params }) => ({ ...body, list_id: params.list_id, id_or_email: params.id_or_email }),
  },
  {
    method: 'delete',
    path: member,
    verb: removeListMember,
    status: 200,
    summary: 'Remove a contact from a list',
    description:
      'Deletes the membership row and discards its record (R11): adding the contact again starts afresh. A complained membership is frozen (R9): removing it is 409, since adding again would undo the complaint.',
    tags,
    response: successResponseSchema,
    input: memberParams,
  },
] satisfies Endpoint[];
