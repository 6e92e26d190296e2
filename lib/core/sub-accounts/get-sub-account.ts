import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { getPartnerAccount, getSubAccountOfParent, presentOneSubAccount } from './internal/queries';
import { subAccountIdSchema } from './schemas';

/** A soft-deleted sub account is still shown here, with status `deleted`: its id stays meaningful in usage and logs. */
export const getSubAccount = defineVerb({
  scope: 'sub-accounts:read',
  input: z.object({ sub_account_id: subAccountIdSchema }),
  async run({ db, principal }, input) {
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    return presentOneSubAccount(
      db,
      await getSubAccountOfParent(db, parent.id, input.sub_account_id, { isDeletedIncluded: true }),
    );
  },
});
