import { findUserForAccount } from '@/lib/core/users/internal/email-identity';
import { defineVerb } from '@/lib/core/verb';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';
import { forbidden } from '@/lib/shared/errors';
import { completeInvitation, createInvitedUser } from './internal/complete-invitation';
import { unsafeGetUsableInvitationByToken } from './internal/queries';
import { acceptInvitationSchema } from './schemas';
import { hashInvitationToken } from './internal/send-invitation-mail';

/**
 * The invitation link, used once: a new user with the reserved id and the password given, then the
 * membership. A link never replaces a password that exists: should the address have a proven user,
 * or an unproven one of this account, that user's password is needed instead. Unproven users of
 * other accounts are other identities (lib/core/users/internal/email-identity.ts): never used, never blocking.
 */
export const acceptMemberInvitation = defineVerb({
  scope: 'any',
  input: acceptInvitationSchema,
  async run(ctx, input) {
    const { db, now } = ctx;
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      const at = now();
      // Locked: of two uses of one link, the second waits and then finds it used.
      const { invitation } = await unsafeGetUsableInvitationByToken(tx, hashInvitationToken(input.token), at, {
        forUpdate: true,
      });
      // A mailed link proves the address, so it joins (or makes) the proven user only.
      const existing = await findUserForAccount(tx, invitation.email, invitation.accountId);
      let userId: string;
      if (existing && (existing.emailVerifiedAt || !invitation.isMailed)) {
        if (!(await verifyPassword(input.password, existing.passwordHash))) {
          throw forbidden(
            `password: ${invitation.email} already has a Mailstead user: enter that user's password to accept`,
          );
        }
        userId = existing.id;
      } else {
        const name = input.name || invitation.name || null;
        userId = (await createInvitedUser(tx, invitation, { name, passwordHash, isProven: invitation.isMailed }, at))
          .id;
      }
      await completeInvitation(tx, ctx, invitation, { id: userId, email: invitation.email }, at);
      return { account_id: invitation.accountId, user_id: userId, email: invitation.email };
    });
  },
});
