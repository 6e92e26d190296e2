import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { accounts } from '@/lib/db/schema';
import { getPartnerAccount, presentOneSubAccount, SUB_ACCOUNT_NOT_FOUND } from './internal/queries';
import { subAccountIdSchema, suspendSubAccountSchema } from './schemas';

/**
 * The child's keys and sessions get 401 "Account is suspended" and its SMTP logins are refused until
 * it is unsuspended. Suspending a suspended child again replaces the reason.
 */
export const suspendSubAccount = defineVerb({
  scope: 'sub-accounts:suspend',
  input: suspendSubAccountSchema.extend({ sub_account_id: subAccountIdSchema }),
  async run({ db, principal, now }, input) {
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const [row] = await db
      .update(accounts)
      .set({ status: 'suspended', suspensionReason: input.reason, updatedAt: now() })
      .where(
        and(eq(accounts.parentAccountId, parent.id), eq(accounts.id, input.sub_account_id), isNull(accounts.deletedAt)),
      )
      .returning();
    if (!row) throw notFound(SUB_ACCOUNT_NOT_FOUND);
    return presentOneSubAccount(db, row);
  },
});
