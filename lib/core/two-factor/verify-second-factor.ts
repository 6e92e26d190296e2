import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { recoveryCodes, users } from '@/lib/db/schema';
import type { SecretBox } from '@/lib/shared/crypto';
import { hashRecoveryCode } from './internal/recovery-codes';
import { TOTP_SECRET_PURPOSE, type UserRow } from './internal/session-user';
import { matchTotpStep } from './internal/totp';

export type SecondFactor = 'totp' | 'recovery_code';

/**
 * Sign-in's second step, after the password: a current TOTP code (spent: its time step is recorded,
 * so it cannot be replayed) or an unused recovery code (spent). Which one it was, or null. Runs
 * before any principal exists; the caller limits how often it may fail.
 */
export async function verifySecondFactor(
  db: Db,
  secrets: SecretBox,
  user: Pick<UserRow, 'id' | 'twoFactorSecretEncrypted' | 'twoFactorLastStep'>,
  code: string,
  now: Date,
): Promise<SecondFactor | null> {
  const compact = code.replace(/[\s-]/g, '');
  if (/^\d{6}$/.test(compact)) {
    if (!user.twoFactorSecretEncrypted) return null;
    const secret = secrets.decrypt(TOTP_SECRET_PURPOSE, user.twoFactorSecretEncrypted);
    const step = await matchTotpStep(secret, compact, now, user.twoFactorLastStep);
    if (step === null) return null;
    // Conditional, so that two sign-ins racing with one code cannot both pass.
    const [spent] = await db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    return spent ? 'totp' : null;
  }
  if (compact.length === 0 || compact.length > 64) return null;
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, hashRecoveryCode(compact)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used ? 'recovery_code' : null;
}
