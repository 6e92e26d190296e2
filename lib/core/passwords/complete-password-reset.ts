import { and, eq, isNull } from 'drizzle-orm';
import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { endEverySessionOf } from '@/lib/core/user-sessions/internal/session-queries';
import { defineVerb } from '@/lib/core/verb';
import { passwordResetTokens, users } from '@/lib/db/schema';
import { hashPassword } from '@/lib/shared/crypto';
import { unsafeGetUsableReset } from './internal/reset-tokens';
import { completePasswordResetSchema } from './schemas';

/**
 * POST /internal/password-resets/complete: the link's user gets the new password, the link and every
 * other outstanding link of theirs are spent, and every session of theirs ends. Nobody is signed in:
 * they sign in with the new password, which proves they know it.
 */
export const completePasswordReset = defineVerb({
  scope: 'any',
  input: completePasswordResetSchema,
  async run(ctx, input) {
    const passwordHash = await hashPassword(input.password);
    return ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      const { reset, email } = await unsafeGetUsableReset(tx, input.token, now, { forUpdate: true });
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, reset.userId));
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, reset.userId), isNull(passwordResetTokens.usedAt)));
      await endEverySessionOf(tx, reset.userId, now);
      // The link proves the mailbox: the person is the actor, though no session exists yet.
      await recordPersonEvent(
        tx,
        ctx,
        { id: reset.userId },
        {
          action: 'user.password_reset',
          resource: { type: 'user', id: reset.userId },
          changes: ['password'],
          actor: { type: 'user', id: reset.userId, label: email },
        },
      );
      return { email, message: 'your password is set: sign in with it' };
    });
  },
});
