import { MEMBER_ROLES } from '@/lib/auth/roles';
import { passwordSchema } from '@/lib/core/users/internal/password-schema';
import { z } from '@/lib/core/zod';

export const memberRoleSchema = z.enum(MEMBER_ROLES, { error: `must be one of ${MEMBER_ROLES.join(', ')}` });

export const userIdSchema = z.string().uuid('invalid user_id');
export const invitationIdSchema = z.string().uuid('invalid invitation_id');

const stringSchema = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

const emailSchema = stringSchema()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .email('must be an email address');

// Shown in the dashboard and written into the invitation mail: one line of printable text.
const personNameSchema = stringSchema()
  .trim()
  .max(255, 'must be at most 255 characters')
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'must not contain control characters or line breaks');

export const addMemberSchema = z
  .object({ email: emailSchema, name: personNameSchema.nullish(), role: memberRoleSchema })
  .openapi('AddMemberRequest');

/** Mailstead extension: the contract has no way to change a member's role. */
export const updateMemberSchema = z.object({ role: memberRoleSchema }).openapi('UpdateMemberRequest');

export const memberPathSchema = z.object({ user_id: userIdSchema });
export const invitationPathSchema = z.object({ invitation_id: invitationIdSchema });

/** The invitation link's secret: 43 base64url characters (32 random bytes). */
export const invitationTokenSchema = stringSchema().regex(/^[A-Za-z0-9_-]{43}$/, 'this invitation link is not valid');

export const inspectInvitationSchema = z.object({ token: invitationTokenSchema });

export const acceptInvitationSchema = z.object({
  token: invitationTokenSchema,
  name: personNameSchema.nullish(),
  password: passwordSchema,
});

export const invitationSchema = z
  .object({
    object: z.literal('member_invitation'),
    id: z.string().uuid(),
    account_id: z.string().uuid(),
    user_id: z
      .string()
      .uuid()
      .describe(
        'The id the user will have once the invitation is accepted (unless the address becomes a user another way first)',
      ),
    email: z.string(),
    name: z.string().nullable(),
    role: memberRoleSchema,
    status: z.enum(['pending', 'expired']),
    expires_at: z.string().datetime(),
    last_sent_at: z.string().datetime(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    delivery: z
      .enum(['email', 'link'])
      .describe('`email`: mailed from the system sender; `link`: no system sender, so `url` is given to pass on'),
    url: z
      .string()
      .optional()
      .describe('The invitation link, only in the answer that made it and only when it is not mailed'),
    delivery_error: z
      .string()
      .optional()
      .describe('Why the link could not be mailed although a system sender is configured'),
  })
  .openapi('MemberInvitation');

export const memberSchema = z
  .object({
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    user_id: z.string().uuid(),
    account_id: z.string().uuid(),
    role: memberRoleSchema,
    email: z.string().describe('Mailstead extension'),
    name: z.string().nullable().describe('Mailstead extension'),
    is_owner: z.boolean().describe('Mailstead extension: the owner cannot be removed and keeps the Administrator role'),
    status: z
      .enum(['active', 'invited'])
      .describe('Mailstead extension: `invited` when adding the email made an invitation (see `invitation`)'),
    invitation: invitationSchema.optional().describe('Mailstead extension: present when `status` is `invited`'),
  })
  .openapi('UserAccount');

export const membersListSchema = z
  .object({ object: z.literal('list'), data: z.array(memberSchema) })
  .openapi('AccountMembersResponse');

export const invitationListSchema = z
  .object({ object: z.literal('list'), data: z.array(invitationSchema) })
  .openapi('MemberInvitationsResponse');
