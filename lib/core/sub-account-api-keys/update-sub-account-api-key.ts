import { apiKeyIdSchema, updateApiKeySchema } from '@/lib/core/api-keys/schemas';
import { updateApiKeyInAccount } from '@/lib/core/api-keys/update-api-key';
import { subAccountIdSchema } from '@/lib/core/sub-accounts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { assertNoSubAccountScopes, getManagedChild } from './internal/queries';

/**
 * As an account key's update, run by a parent key on the child's key. The self-lockout guard never
 * applies: the caller is never the key it edits (the contract says so for parent keys).
 */
export const updateSubAccountApiKey = defineVerb({
  scope: 'sub-account-api-keys:write',
  input: updateApiKeySchema.extend({ sub_account_id: subAccountIdSchema, key_id: apiKeyIdSchema }),
  async run({ db, principal, now, requestId }, input) {
    const child = await getManagedChild(db, principal.targetAccountId, input.sub_account_id);
    assertNoSubAccountScopes(input.scopes);
    return updateApiKeyInAccount(db, { principal, requestId }, child.id, input, now());
  },
});
