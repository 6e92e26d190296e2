import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { accounts } from '@/lib/db/schema';
import { getPartnerAccount, SUB_ACCOUNT_NOT_FOUND } from './internal/queries';
import { subAccountIdSchema } from './schemas';

/**
 * Soft delete: status `deleted` and `deleted_at`, so the child's keys, sessions and SMTP credentials
 * stop working and it leaves the list, while its rows (and the month's usage, reported as removed)
 * stay. A second delete is a 404.
 */
export const deleteSubAccount = defineVerb({
  scope: 'sub-accounts:delete',
  input: z.object({ sub_account_id: subAccountIdSchema }),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const at = now();
    await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(accounts)
        .set({ status: 'deleted', deletedAt: at, updatedAt: at })
        .where(
          and(
            eq(accounts.parentAccountId, parent.id),
            eq(accounts.id, input.sub_account_id),
            isNull(accounts.deletedAt),
          ),
        )
        .returning({ id: accounts.id });
      if (!changed) throw notFound(SUB_ACCOUNT_NOT_FOUND);
      await recordAuditEvent(tx, ctx, {
        action: 'sub_account.delete',
        resource: { type: 'sub_account', id: changed.id },
        accountId: changed.id,
      });
      return changed;
    });
    return { message: 'sub account deleted' };
  },
});
