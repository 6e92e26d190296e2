import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
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
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(accounts)
        .set({ status: 'suspended', suspensionReason: input.reason, updatedAt: now() })
        .where(
          and(
            eq(accounts.parentAccountId, parent.id),
            eq(accounts.id, input.sub_account_id),
            isNull(accounts.deletedAt),
          ),
        )
        .returning();
      if (!changed) throw notFound(SUB_ACCOUNT_NOT_FOUND);
      await recordAuditEvent(tx, ctx, {
        action: 'sub_account.suspend',
        resource: { type: 'sub_account', id: changed.id },
        accountId: changed.id,
      });
      return changed;
    });
    return presentOneSubAccount(db, row);
  },
});
