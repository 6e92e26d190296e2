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
  async run({ db, principal, now }, input) {
    const website = normalizeWebsite(input.website);
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const at = now();
    const [row] = await db
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
    return presentOneSubAccount(db, row);
  },
});
