import { and, eq, isNotNull } from 'drizzle-orm';
import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { notifyTwoFactorDisabled } from '@/lib/core/notifications/notify-two-factor-disabled';
import { requestPasswordResetSchema } from '@/lib/core/passwords/schemas';
import { listUsersByEmail } from '@/lib/core/users/internal/email-identity';
import { defineVerb } from '@/lib/core/verb';
import { recoveryCodes, users } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';

/**
 * `mailstead users disable-two-factor EMAIL`: the operator's way back in for someone who lost both
 * their authenticator and their recovery codes. Their password still applies; the person is mailed,
 * and every account of theirs records it with the operator as the actor.
 */
export const turnOffTwoFactorForUser = defineVerb({
  scope: 'system',
  input: requestPasswordResetSchema,
  async run(ctx, input) {
    const candidates = await listUsersByEmail(ctx.db, input.email);
    const user = candidates.find((candidate) => candidate.twoFactorEnabledAt) ?? candidates[0];
    if (!user) throw notFound(`no user has the email ${input.email}`);
    return ctx.db.transaction(async (tx) => {
      const [turnedOff] = await tx
        .update(users)
        .set({
          twoFactorEnabledAt: null,
          twoFactorSecretEncrypted: null,
          twoFactorLastStep: null,
          updatedAt: ctx.now(),
        })
        .where(and(eq(users.id, user.id), isNotNull(users.twoFactorEnabledAt)))
        .returning({ id: users.id });
      if (!turnedOff) throw conflict(`two-factor sign-in is already off for ${user.email}`);
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await recordPersonEvent(tx, ctx, user, {
        action: 'user.two_factor_disable',
        resource: { type: 'user', id: user.id },
        changes: ['two_factor'],
      });
      await notifyTwoFactorDisabled(ctx, tx, { userId: user.id, detail: 'turned off by an operator' });
      return { email: user.email, two_factor: 'off' as const };
    });
  },
});
