import { listMemberInvitations } from '@/lib/core/members/list-member-invitations';
import { resendMemberInvitation } from '@/lib/core/members/resend-member-invitation';
import { revokeMemberInvitation } from '@/lib/core/members/revoke-member-invitation';
import { invitationListSchema, invitationSchema } from '@/lib/core/members/schemas';
import type { Endpoint } from '../endpoint';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/member-invitations' as const;
const item = `${collection}/{invitation_id}` as const;
const tags = ['Accounts'];

/** Mailstead extensions: invitations made by adding a member whose email has no user. */
export const memberInvitationEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listMemberInvitations,
    status: 200,
    summary: 'List pending member invitations',
    description:
      'Invitations neither accepted nor revoked, expired ones included (`status: expired`) so that they can be resent. Links are never listed.',
    tags,
    response: invitationListSchema,
    isExtension: true,
  },
  {
    method: 'post',
    path: `${item}/resend` as const,
    verb: resendMemberInvitation,
    status: 200,
    summary: 'Resend a member invitation',
    description:
      'A new link with a new expiry; the previous link stops working. Mailed from the system sender, or returned as `url` when none is configured.',
    tags,
    response: invitationSchema,
    isExtension: true,
    isSecretBearing: true,
  },
  {
    method: 'delete',
    path: item,
    verb: revokeMemberInvitation,
    status: 200,
    summary: 'Revoke a member invitation',
    tags,
    response: successResponseSchema,
    isExtension: true,
  },
] satisfies Endpoint[];
