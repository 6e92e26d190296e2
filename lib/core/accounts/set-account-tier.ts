import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { accounts } from '@/lib/db/schema';
import { accountIdSchema, accountTierSchema } from './schemas';

/** Operator verb: partner accounts may bring their own DKIM keys and selectors, and have sub accounts. */
export const setAccountTier = defineVerb({
  scope: 'system',
  input: z.object({ account_id: accountIdSchema, tier: accountTierSchema }),
  async run(ctx, input) {
    const { db, now } = ctx;
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(accounts)
        .set({ tier: input.tier, updatedAt: now() })
        .where(and(eq(accounts.id, input.account_id), isNull(accounts.deletedAt)))
        .returning({ id: accounts.id, tier: accounts.tier });
      if (!changed) throw notFound(`account ${input.account_id} not found`);
      await recordAuditEvent(tx, ctx, {
        action: 'account.update',
        resource: { type: 'account', id: changed.id },
        changes: ['tier'],
        accountId: changed.id,
      });
      return changed;
    });
    return row;
  },
});
