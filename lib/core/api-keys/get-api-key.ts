import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { presentApiKey } from './internal/present';
import { getApiKeyInAccount, loadScopesOfKeys } from './internal/queries';
import { apiKeyIdSchema } from './schemas';

export const getApiKey = defineVerb({
  scope: 'api-keys:read',
  input: z.object({ key_id: apiKeyIdSchema }),
  async run({ db, principal }, input) {
    const key = await getApiKeyInAccount(db, principal.targetAccountId, input.key_id);
    return presentApiKey(key, await loadScopesOfKeys(db, [key.id]));
  },
});
