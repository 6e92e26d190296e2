import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts } from '@/lib/db/schema';
import { presentOneSubAccount, getPartnerAccount } from './internal/queries';
import { createSubAccountSchema } from './schemas';
import { normalizeWebsite } from './internal/website';

/**
 * A child account under a partner-tier parent: a complete account of its own (domains, keys,
 * messages), owned by the parent's owner, with no members until the child adds some. The parent
 * reaches it only through the sub-account endpoints; the child's own keys come from there too.
 */
export const createSubAccount = defineVerb({
  scope: 'sub-accounts:write',
  input: createSubAccountSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const website = normalizeWebsite(input.website);
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(accounts)
        .values({
          parentAccountId: parent.id,
          ownerId: parent.ownerId,
          name: input.name,
          website: `https://${website}`,
          monthlyCredit: input.monthly_credit,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'sub_account.create',
        resource: { type: 'sub_account', id: created.id },
        accountId: created.id,
      });
      return created;
    });
    return presentOneSubAccount(db, row);
  },
});
