import { domainPathSchema } from '@/lib/core/domains/schemas';
import { unpauseDomainInAccount } from '@/lib/core/domains/unpause-domain';
import { defineVerb } from '@/lib/core/verb';
import { getPartnerAccount, getSubAccountOfParent } from './internal/queries';
import { subAccountIdSchema } from './schemas';

/**
 * Mailstead extension: the spec says `sub-accounts:suspend` also covers unpausing a sub account's
 * domains, and the contract has no path for it, so a parent does it here without a child key.
 */
export const unpauseSubAccountDomain = defineVerb({
  scope: 'sub-accounts:suspend',
  input: domainPathSchema.extend({ sub_account_id: subAccountIdSchema }),
  async run(ctx, input) {
    const { db, principal, config, now } = ctx;
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const child = await getSubAccountOfParent(db, parent.id, input.sub_account_id);
    return unpauseDomainInAccount(db, ctx, config, child.id, input.domain, now());
  },
});
