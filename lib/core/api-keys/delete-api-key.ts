import { and, eq } from 'drizzle-orm';
import { authorizeKeyManagement } from '@/lib/auth/authorize';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { apiKeys } from '@/lib/db/schema';
import { getApiKeyInAccount, loadScopesOfKeys } from './queries';
import { apiKeyIdSchema } from './schemas';

/** Only a caller holding every scope of the key may delete it. */
export const deleteApiKey = defineVerb({
  scope: 'api-keys:delete',
  input: z.object({ key_id: apiKeyIdSchema }),
  async run({ db, principal }, input) {
    const key = await getApiKeyInAccount(db, principal.targetAccountId, input.key_id);
    authorizeKeyManagement(principal, (await loadScopesOfKeys(db, [key.id])).map((s) => s.scope));
    // Scope rows go with the key (ON DELETE CASCADE).
    await db.delete(apiKeys).where(and(eq(apiKeys.accountId, principal.targetAccountId), eq(apiKeys.id, key.id)));
    return { message: `api key ${key.id} (${key.label}) deleted successfully` };
  },
});
