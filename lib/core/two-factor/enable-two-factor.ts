import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { and, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { users } from '@/lib/db/schema';
import { conflict, invalidInput } from '@/lib/shared/errors';
import { replaceRecoveryCodes } from './internal/recovery-codes';
import { getSessionUser, TOTP_SECRET_PURPOSE } from './internal/session-user';
import { matchTotpStep } from './internal/totp';
import { enableTwoFactorSchema } from './schemas';

/**
 * Turns two-factor sign-in on once a code from the secret of setup proves the app holds it. Answers
 * the ten recovery codes: the only time they are ever shown.
 */
export const enableTwoFactor = defineVerb({
  scope: 'any',
  input: enableTwoFactorSchema,
  async run(ctx, input) {
    const { db, principal, secrets, now } = ctx;
    const user = await getSessionUser(db, principal);
    if (user.twoFactorEnabledAt) throw conflict('two-factor sign-in is already on');
    if (!user.twoFactorSecretEncrypted) throw conflict('start the setup first: no secret is waiting for a code');
    const secret = secrets.decrypt(TOTP_SECRET_PURPOSE, user.twoFactorSecretEncrypted);
    const step = await matchTotpStep(secret, input.code, now(), null);
    if (step === null)
      throw invalidInput(
        'code: that code is not valid; check the clock of your device and try the current one',
        'code',
      );
    return db.transaction(async (tx) => {
      const [turnedOn] = await tx
        .update(users)
        .set({ twoFactorEnabledAt: now(), twoFactorLastStep: step, updatedAt: now() })
        .where(and(eq(users.id, user.id), isNull(users.twoFactorEnabledAt)))
        .returning({ id: users.id });
      // A double submit: the first one's recovery codes are the ones shown, and stay the valid ones.
      if (!turnedOn) throw conflict('two-factor sign-in is already on');
      const codes = await replaceRecoveryCodes(tx, user.id);
      await recordPersonEvent(tx, ctx, user, {
        action: 'user.two_factor_enable',
        resource: { type: 'user', id: user.id },
        changes: ['two_factor'],
      });
      return { object: 'two_factor_recovery_codes' as const, recovery_codes: codes };
    });
  },
});
