import { and, eq, isNull } from 'drizzle-orm';
import { invalidInput, notFound } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts } from '@/lib/db/schema';
import { websiteHostOf } from './internal/present';
import {
  getPartnerAccount,
  getSubAccountOfParent,
  presentOneSubAccount,
  SUB_ACCOUNT_NOT_FOUND,
} from './internal/queries';
import { subAccountIdSchema, updateSubAccountSchema } from './schemas';
import { normalizeWebsite } from './internal/website';

/** Null or omitted fields stay as they are; the request must change something (400 otherwise, as for API keys). */
export const updateSubAccount = defineVerb({
  scope: 'sub-accounts:write',
  input: updateSubAccountSchema.extend({ sub_account_id: subAccountIdSchema }),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    if (input.name == null && input.website == null && input.monthly_credit == null) {
      throw invalidInput('at least one of name, website or monthly_credit must be given');
    }
    const website = input.website != null ? normalizeWebsite(input.website) : null;
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const current = await getSubAccountOfParent(db, parent.id, input.sub_account_id);
    const changes = {
      ...(input.name != null && input.name !== current.name ? { name: input.name } : {}),
      ...(website !== null && website !== websiteHostOf(current.website) ? { website: `https://${website}` } : {}),
      ...(input.monthly_credit != null && input.monthly_credit !== current.monthlyCredit
        ? { monthlyCredit: input.monthly_credit }
        : {}),
    };
    if (Object.keys(changes).length === 0)
      throw invalidInput('nothing to change: the given values equal the current ones');
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(accounts)
        .set({ ...changes, updatedAt: now() })
        .where(and(eq(accounts.parentAccountId, parent.id), eq(accounts.id, current.id), isNull(accounts.deletedAt)))
        .returning();
      if (!updated) throw notFound(SUB_ACCOUNT_NOT_FOUND);
      await recordAuditEvent(tx, ctx, {
        action: 'sub_account.update',
        resource: { type: 'sub_account', id: updated.id },
        changes: Object.keys(changes).map((key) => (key === 'monthlyCredit' ? 'monthly_credit' : key)),
        accountId: updated.id,
      });
      return updated;
    });
    return presentOneSubAccount(db, row);
  },
});
