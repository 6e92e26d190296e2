import { and, count, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { accounts, memberships, users } from '@/lib/db/schema';

/** The account's two-factor rule, and how many of its members have not set it up yet. */
export const getTwoFactorRequirement = defineVerb({
  scope: 'accounts:read',
  input: z.object({}),
  async run({ db, principal }) {
    const [account] = await db
      .select({ value: accounts.requireTwoFactor })
      .from(accounts)
      .where(eq(accounts.id, principal.targetAccountId))
      .limit(1);
    const [without] = await db
      .select({ value: count() })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.accountId, principal.targetAccountId), isNull(users.twoFactorEnabledAt)));
    return {
      object: 'two_factor_requirement' as const,
      require_two_factor: account?.value ?? false,
      members_without_two_factor: without?.value ?? 0,
    };
  },
});
