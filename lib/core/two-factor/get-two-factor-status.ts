import { and, count, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { recoveryCodes } from '@/lib/db/schema';
import { accountsRequiringTwoFactor } from './internal/requiring-accounts';
import { getSessionUser } from './internal/session-user';

/** The signed-in person's two-factor state, and the accounts that require it of them. */
export const getTwoFactorStatus = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db, principal }) {
    const user = await getSessionUser(db, principal);
    const [remaining] = await db
      .select({ value: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
    const requiredBy = (await accountsRequiringTwoFactor(db, user.id)).map(({ id, name }) => ({ id, name }));
    return {
      object: 'two_factor' as const,
      is_enabled: user.twoFactorEnabledAt !== null,
      enabled_at: user.twoFactorEnabledAt?.toISOString() ?? null,
      recovery_codes_remaining: user.twoFactorEnabledAt ? (remaining?.value ?? 0) : 0,
      required_by: requiredBy,
    };
  },
});
