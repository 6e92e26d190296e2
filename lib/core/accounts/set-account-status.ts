import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { releaseHeldMessages } from '@/lib/core/messages/internal/release-held-messages';
import { accounts } from '@/lib/db/schema';
import { accountIdSchema, accountStatusSchema } from './schemas';

/**
 * Operator verb: a suspended account's keys get 401 "Account is suspended" until it is reactivated.
 * Its active sub accounts follow it into `parent-suspended` and back; a sub account its parent had
 * suspended itself stays `suspended`. Mail held while it could not send leaves at once on reactivation.
 */
export const setAccountStatus = defineVerb({
  scope: 'system',
  input: z.object({ account_id: accountIdSchema, status: accountStatusSchema, reason: z.string().max(500).optional() }),
  async run(ctx, input) {
    const { db, now } = ctx;
    const row = await db.transaction(async (tx) => {
      const at = now();
      const [row] = await tx
        .update(accounts)
        .set({
          status: input.status,
          suspensionReason: input.status === 'suspended' ? (input.reason ?? null) : null,
          updatedAt: at,
        })
        .where(and(eq(accounts.id, input.account_id), isNull(accounts.deletedAt)))
        .returning({ id: accounts.id, status: accounts.status });
      if (!row) throw notFound(`account ${input.account_id} not found`);
      const [from, to] = input.status === 'suspended' ? ['active', 'parent-suspended'] : ['parent-suspended', 'active'];
      await tx
        .update(accounts)
        .set({ status: to, updatedAt: at })
        .where(and(eq(accounts.parentAccountId, row.id), eq(accounts.status, from), isNull(accounts.deletedAt)));
      await recordAuditEvent(tx, ctx, {
        action: input.status === 'suspended' ? 'account.suspend' : 'account.unsuspend',
        resource: { type: 'account', id: row.id },
        accountId: row.id,
      });
      return row;
    });
    if (row.status === 'active') await releaseHeldMessages(db, row.id, now());
    return row;
  },
});
