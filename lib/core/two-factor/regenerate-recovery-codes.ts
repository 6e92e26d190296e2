import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { users } from '@/lib/db/schema';
import { AppError, conflict } from '@/lib/shared/errors';
import { replaceRecoveryCodes } from './internal/recovery-codes';
import { getSessionUser, requirePassword, requireProof, TOTP_SECRET_PURPOSE } from './internal/session-user';
import { matchTotpStep } from './internal/totp';
import { regenerateRecoveryCodesSchema } from './schemas';

/** Ten new recovery codes, shown once; the old ones stop working. Needs the password or a current code. */
export const regenerateRecoveryCodes = defineVerb({
  scope: 'any',
  input: regenerateRecoveryCodesSchema,
  async run(ctx, input) {
    const { db, principal, secrets, now } = ctx;
    const user = await getSessionUser(db, principal);
    if (!user.twoFactorEnabledAt || !user.twoFactorSecretEncrypted) throw conflict('two-factor sign-in is off');
    let step: number | null = null;
    if (input.password !== undefined) await requirePassword(ctx, user, input.password);
    else {
      const secret = secrets.decrypt(TOTP_SECRET_PURPOSE, user.twoFactorSecretEncrypted!);
      await requireProof(
        ctx,
        user,
        async () => (step = await matchTotpStep(secret, input.code ?? '', now(), user.twoFactorLastStep)) !== null,
        new AppError('forbidden', 'code: that code is not valid (or was already used)', 'code'),
      );
    }
    return db.transaction(async (tx) => {
      if (step !== null) {
        // The code is spent like one at sign-in: the same code cannot be used twice.
        const [spent] = await tx
          .update(users)
          .set({ twoFactorLastStep: step })
          .where(and(eq(users.id, user.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
          .returning({ id: users.id });
        if (!spent) throw new AppError('forbidden', 'code: that code was already used', 'code');
      }
      const codes = await replaceRecoveryCodes(tx, user.id);
      await recordPersonEvent(tx, ctx, user, {
        action: 'user.recovery_codes_regenerate',
        resource: { type: 'user', id: user.id },
        changes: ['recovery_codes'],
      });
      return { object: 'two_factor_recovery_codes' as const, recovery_codes: codes };
    });
  },
});
