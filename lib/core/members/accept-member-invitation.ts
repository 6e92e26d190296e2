import { eq, sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { memberInvitations, memberships, users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';
import { conflict, forbidden } from '@/lib/shared/errors';
import { unsafeGetUsableInvitationByToken } from './queries';
import { acceptInvitationSchema } from './schemas';
import { hashInvitationToken } from './send-invitation-mail';

/**
 * The invitation link, used once: a new user with the reserved id and the password given, then the
 * membership. Should the address have become a user meanwhile, that user's own password is needed
 * instead: a link never replaces a password that exists, except a mailed link for a user whose
 * address was never proved.
 */
export const acceptMemberInvitation = defineVerb({
  scope: 'any',
  input: acceptInvitationSchema,
  async run({ db, now }, input) {
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      const at = now();
      // Locked: of two uses of one link, the second waits and then finds it used.
      const { invitation } = await unsafeGetUsableInvitationByToken(tx, hashInvitationToken(input.token), at, { forUpdate: true });
      const [existing] = await tx.select().from(users).where(eq(users.email, invitation.email)).limit(1);
      let userId: string;
      if (existing && !existing.isEmailVerified && invitation.isMailed) {
        // The mailbox's owner opened a mailed link for a user nobody had proved the address of: it is
        // theirs now, with their password, and whoever made it up is signed out.
        await tx
          .update(users)
          .set({ passwordHash, isEmailVerified: true, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: at })
          .where(eq(users.id, existing.id));
        userId = existing.id;
      } else if (existing) {
        if (!(await verifyPassword(input.password, existing.passwordHash))) {
          throw forbidden(`password: ${invitation.email} already has a Mailstead user: enter that user's password to accept`);
        }
        userId = existing.id;
      } else {
        const [created] = await tx
          .insert(users)
          .values({ id: invitation.userId, email: invitation.email, name: input.name || invitation.name || null, passwordHash, isEmailVerified: invitation.isMailed, createdAt: at, updatedAt: at })
          .onConflictDoNothing()
          .returning();
        if (!created) throw conflict('this address became a user at the same moment: open the link again');
        userId = created.id;
      }
      await tx.insert(memberships).values({ accountId: invitation.accountId, userId, role: invitation.role, createdAt: at, updatedAt: at }).onConflictDoNothing();
      await tx.update(memberInvitations).set({ acceptedAt: at, updatedAt: at }).where(eq(memberInvitations.id, invitation.id));
      return { account_id: invitation.accountId, user_id: userId, email: invitation.email };
    });
  },
});
