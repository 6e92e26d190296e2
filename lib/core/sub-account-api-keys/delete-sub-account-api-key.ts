import { deleteApiKeyInAccount } from '@/lib/core/api-keys/delete-api-key';
import { apiKeyIdSchema } from '@/lib/core/api-keys/schemas';
import { subAccountIdSchema } from '@/lib/core/sub-accounts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { getManagedChild } from './internal/queries';

export const deleteSubAccountApiKey = defineVerb({
  scope: 'sub-account-api-keys:delete',
  input: z.object({ sub_account_id: subAccountIdSchema, key_id: apiKeyIdSchema }),
  async run({ db, principal, requestId }, input) {
    const child = await getManagedChild(db, principal.targetAccountId, input.sub_account_id);
    return deleteApiKeyInAccount(db, { principal, requestId }, child.id, input.key_id);
  },
});
