import { eq } from 'drizzle-orm';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts, users } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { setTwoFactorRequirementSchema } from './schemas';

/**
 * "Require two-factor sign-in for members". A person turning it on must have it themselves, or the
 * next request would lock them out of the account they are configuring.
 */
export const setTwoFactorRequirement = defineVerb({
  scope: 'accounts:write',
  input: setTwoFactorRequirementSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    if (input.require_two_factor && principal.kind === 'session' && principal.userId) {
      const [me] = await db
        .select({ enabledAt: users.twoFactorEnabledAt })
        .from(users)
        .where(eq(users.id, principal.userId))
        .limit(1);
      if (!me?.enabledAt)
        throw conflict(
          'set up two-factor sign-in for yourself first (Profile), then require it of the members',
          'require_two_factor',
        );
    }
    return db.transaction(async (tx) => {
      const [before] = await tx
        .select({ value: accounts.requireTwoFactor })
        .from(accounts)
        .where(eq(accounts.id, principal.targetAccountId))
        .for('update');
      if (before && before.value !== input.require_two_factor) {
        await tx
          .update(accounts)
          .set({ requireTwoFactor: input.require_two_factor, updatedAt: now() })
          .where(eq(accounts.id, principal.targetAccountId));
        await recordAuditEvent(tx, ctx, {
          action: 'account.update',
          resource: { type: 'account', id: principal.targetAccountId },
          changes: ['require_two_factor'],
        });
      }
      return { object: 'two_factor_requirement' as const, require_two_factor: input.require_two_factor };
    });
  },
});
