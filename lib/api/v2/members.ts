import { addMember } from '@/lib/core/members/add-member';
import { listMembers } from '@/lib/core/members/list-members';
import { removeMember } from '@/lib/core/members/remove-member';
import { addMemberSchema, memberSchema, membersListSchema, updateMemberSchema } from '@/lib/core/members/schemas';
import { updateMember } from '@/lib/core/members/update-member';
import type { Endpoint } from '../endpoint';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/members' as const;
const item = `${collection}/{user_id}` as const;
const tags = ['Accounts'];

export const memberEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listMembers,
    status: 200,
    summary: 'Get account members',
    tags,
    response: membersListSchema,
  },
  {
    method: 'post',
    path: collection,
    verb: addMember,
    status: 201,
    summary: 'Add account member',
    description:
      'An email that is already a Mailstead user becomes a member at once (`status: active`). An email with no user gets an invitation (`status: invited`): `user_id` is the id the user will have, and `invitation` says whether the link was mailed from the system sender or, with none configured, carries it as `url`. 409 when already a member or already invited. The role given may only be one whose scopes the caller holds.',
    tags,
    body: addMemberSchema,
    response: memberSchema,
    input: ({ body }) => body,
    // Sealed: the answer may carry an invitation link, which works as a credential.
    idempotency: 'sealed',
    isSecretBearing: true,
  },
  {
    method: 'put',
    path: item,
    verb: updateMember,
    status: 200,
    summary: "Change a member's role",
    description:
      'Not in the AhaSend contract. The owner keeps the Administrator role (403); nobody changes their own role (400).',
    tags,
    body: updateMemberSchema,
    response: memberSchema,
    input: ({ body, params }) => ({ ...body, user_id: params.user_id }),
    isExtension: true,
  },
  {
    method: 'delete',
    path: item,
    verb: removeMember,
    status: 200,
    summary: 'Remove account member',
    description:
      'Removing yourself is 400 and removing the owner is 403, with a message. The `user_id` of a pending invitation revokes it.',
    tags,
    response: successResponseSchema,
  },
] satisfies Endpoint[];
