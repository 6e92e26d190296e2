import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { releaseHeldMessages } from '@/lib/core/messages/internal/release-held-messages';
import { accounts } from '@/lib/db/schema';
import { getPartnerAccount, presentOneSubAccount, SUB_ACCOUNT_NOT_FOUND } from './internal/queries';
import { subAccountIdSchema } from './schemas';

/**
 * `suspended` -> `active` (the spec's one transition), and the mail held meanwhile leaves at once.
 * A child that is not suspended is answered as it is, so that a retried unsuspend succeeds. A
 * `parent-suspended` child cannot be reached: its parent's own keys are refused while the parent
 * is suspended.
 */
export const unsuspendSubAccount = defineVerb({
  scope: 'sub-accounts:suspend',
  input: z.object({ sub_account_id: subAccountIdSchema }),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const tenancy = and(
      eq(accounts.parentAccountId, parent.id),
      eq(accounts.id, input.sub_account_id),
      isNull(accounts.deletedAt),
    );
    const row = await db.transaction(async (tx) => {
      const [unsuspended] = await tx
        .update(accounts)
        .set({ status: 'active', suspensionReason: null, updatedAt: now() })
        .where(and(tenancy, eq(accounts.status, 'suspended')))
        .returning();
      if (!unsuspended) return null;
      await releaseHeldMessages(tx, unsuspended.id, now());
      await recordAuditEvent(tx, ctx, {
        action: 'sub_account.unsuspend',
        resource: { type: 'sub_account', id: unsuspended.id },
        accountId: unsuspended.id,
      });
      return unsuspended;
    });
    if (row) return presentOneSubAccount(db, row);
    const [unchanged] = await db.select().from(accounts).where(tenancy).limit(1);
    if (!unchanged) throw notFound(SUB_ACCOUNT_NOT_FOUND);
    return presentOneSubAccount(db, unchanged);
  },
});
