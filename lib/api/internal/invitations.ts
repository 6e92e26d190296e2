import { acceptMemberInvitation } from '@/lib/core/members/accept-member-invitation';
import { inspectMemberInvitation } from '@/lib/core/members/inspect-member-invitation';
import { acceptInvitationSchema, inspectInvitationSchema } from '@/lib/core/members/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/**
 * The invitation page (/invite/TOKEN), before the person has a session: the token travels in the
 * body (POST), never in a URL the server logs.
 */
export const invitationInternalEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/internal/invitations/inspect',
    verb: inspectMemberInvitation,
    status: 200,
    summary: 'Who an invitation link is for, while it can be used',
    tags: ['Internal'],
    body: inspectInvitationSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isAnonymous: true,
  },
  {
    method: 'post',
    path: '/internal/invitations/accept',
    verb: acceptMemberInvitation,
    status: 200,
    summary: 'Use an invitation link: set the password, become a member',
    tags: ['Internal'],
    body: acceptInvitationSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isAnonymous: true,
  },
];
