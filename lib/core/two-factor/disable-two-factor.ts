import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { and, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { accounts, memberships, recoveryCodes, users } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
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
    await requirePassword(user, input.password);
    if (!user.twoFactorEnabledAt) throw conflict('two-factor sign-in is already off');
    const [requiring] = await db
      .select({ name: accounts.name })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(and(eq(memberships.userId, user.id), eq(accounts.requireTwoFactor, true), isNull(accounts.deletedAt)))
      .limit(1);
    if (requiring) throw conflict(`the account “${requiring.name}” requires two-factor sign-in of its members`);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ twoFactorEnabledAt: null, twoFactorSecretEncrypted: null, twoFactorLastStep: null, updatedAt: now() })
        .where(eq(users.id, user.id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await recordPersonEvent(tx, ctx, user, {
        action: 'user.two_factor_disable',
        resource: { type: 'user', id: user.id },
        changes: ['two_factor'],
      });
    });
    return { object: 'two_factor' as const, is_enabled: false };
  },
});
