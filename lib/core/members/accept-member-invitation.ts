import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { findUserForAccount } from '@/lib/core/users/internal/email-identity';
import { defineVerb } from '@/lib/core/verb';
import { memberInvitations, memberships, users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';
import { conflict, forbidden } from '@/lib/shared/errors';
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
        const [created] = await tx
          .insert(users)
          .values({
            id: invitation.userId,
            email: invitation.email,
            name: input.name || invitation.name || null,
            passwordHash,
            emailVerifiedAt: invitation.isMailed ? at : null,
            limitedToAccountId: invitation.isMailed ? null : invitation.accountId,
            createdAt: at,
            updatedAt: at,
          })
          .onConflictDoNothing()
          .returning();
        if (!created) throw conflict('this address became a user at the same moment: open the link again');
        userId = created.id;
      }
      await tx
        .insert(memberships)
        .values({ accountId: invitation.accountId, userId, role: invitation.role, createdAt: at, updatedAt: at })
        .onConflictDoNothing();
      await tx
        .update(memberInvitations)
        .set({ acceptedAt: at, updatedAt: at })
        .where(eq(memberInvitations.id, invitation.id));
      // The link is the credential: the person it made (or proved) is the actor.
      await recordAuditEvent(tx, ctx, {
        action: 'invitation.accept',
        resource: { type: 'invitation', id: invitation.id },
        accountId: invitation.accountId,
        actor: { type: 'user', id: userId, label: invitation.email },
      });
      return { account_id: invitation.accountId, user_id: userId, email: invitation.email };
    });
  },
});
