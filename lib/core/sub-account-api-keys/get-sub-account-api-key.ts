import { presentApiKey } from '@/lib/core/api-keys/internal/present';
import { getApiKeyInAccount, loadScopesOfKeys } from '@/lib/core/api-keys/internal/queries';
import { apiKeyIdSchema } from '@/lib/core/api-keys/schemas';
import { subAccountIdSchema } from '@/lib/core/sub-accounts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { getManagedChild } from './internal/queries';

export const getSubAccountApiKey = defineVerb({
  scope: 'sub-account-api-keys:read',
  input: z.object({ sub_account_id: subAccountIdSchema, key_id: apiKeyIdSchema }),
  async run({ db, principal }, input) {
    const child = await getManagedChild(db, principal.targetAccountId, input.sub_account_id);
    const key = await getApiKeyInAccount(db, child.id, input.key_id);
    return presentApiKey(key, await loadScopesOfKeys(db, [key.id]));
  },
});
