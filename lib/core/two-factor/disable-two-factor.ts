import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { and, eq, isNotNull } from 'drizzle-orm';
import { notifyTwoFactorDisabled } from '@/lib/core/notifications/notify-two-factor-disabled';
import { defineVerb } from '@/lib/core/verb';
import { recoveryCodes, users } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { accountsRequiringTwoFactor } from './internal/requiring-accounts';
import { getSessionUser, requirePassword } from './internal/session-user';
import { disableTwoFactorSchema } from './schemas';

/**
 * Turns two-factor sign-in off (the password proves it is the person), dropping the secret and the
 * recovery codes. Refused while an account of theirs requires it: they would be locked out of it.
 */
export const disableTwoFactor = defineVerb({
  scope: 'any',
  input: disableTwoFactorSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const user = await getSessionUser(db, principal);
    await requirePassword(ctx, user, input.password);
    if (!user.twoFactorEnabledAt) throw conflict('two-factor sign-in is already off');
    const [requiring] = await accountsRequiringTwoFactor(db, user.id);
    if (requiring)
      throw conflict(
        requiring.requiredBy === requiring.name
          ? `the account “${requiring.name}” requires two-factor sign-in of its members`
          : `the account “${requiring.requiredBy}” requires two-factor sign-in of its members and of its sub account “${requiring.name}”`,
      );
    await db.transaction(async (tx) => {
      const [turnedOff] = await tx
        .update(users)
        .set({ twoFactorEnabledAt: null, twoFactorSecretEncrypted: null, twoFactorLastStep: null, updatedAt: now() })
        .where(and(eq(users.id, user.id), isNotNull(users.twoFactorEnabledAt)))
        .returning({ id: users.id });
      // Two clicks at once: the first turned it off and records it, the second has nothing to do.
      if (!turnedOff) throw conflict('two-factor sign-in is already off');
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await recordPersonEvent(tx, ctx, user, {
        action: 'user.two_factor_disable',
        resource: { type: 'user', id: user.id },
        changes: ['two_factor'],
      });
      // If it was not them, the mail is how they find out.
      await notifyTwoFactorDisabled(ctx, tx, { userId: user.id, requestId: ctx.requestId });
    });
    return { object: 'two_factor' as const, is_enabled: false };
  },
});
