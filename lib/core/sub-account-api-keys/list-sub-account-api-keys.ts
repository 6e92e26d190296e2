import { listApiKeysOfAccount } from '@/lib/core/api-keys/list-api-keys';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { subAccountIdSchema } from '@/lib/core/sub-accounts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { getManagedChild } from './internal/queries';

export const listSubAccountApiKeys = defineVerb({
  scope: 'sub-account-api-keys:read',
  input: pageQuerySchema.extend({ sub_account_id: subAccountIdSchema }),
  async run({ db, principal }, input) {
    const child = await getManagedChild(db, principal.targetAccountId, input.sub_account_id);
    return listApiKeysOfAccount(db, child.id, input);
  },
});
