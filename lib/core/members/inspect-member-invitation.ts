import { defineVerb } from '@/lib/core/verb';
import { unsafeGetUsableInvitationByToken } from './internal/queries';
import { inspectInvitationSchema } from './schemas';
import { hashInvitationToken } from './internal/send-invitation-mail';

/** What the invitation page shows before the person sets a password: the link is the credential. */
export const inspectMemberInvitation = defineVerb({
  scope: 'any',
  input: inspectInvitationSchema,
  async run({ db, now }, input) {
    const { invitation, accountName } = await unsafeGetUsableInvitationByToken(
      db,
      hashInvitationToken(input.token),
      now(),
      { forUpdate: false },
    );
    return {
      email: invitation.email,
      name: invitation.name,
      role: invitation.role,
      account_name: accountName,
      expires_at: invitation.expiresAt.toISOString(),
    };
  },
});
