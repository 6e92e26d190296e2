import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { apiKeys } from '@/lib/db/schema';
import { getApiKeyInAccount } from './queries';
import { apiKeyIdSchema } from './schemas';

export const deleteApiKey = defineVerb({
  scope: 'api-keys:delete',
  input: z.object({ key_id: apiKeyIdSchema }),
  async run({ db, principal }, input) {
    const key = await getApiKeyInAccount(db, principal.targetAccountId, input.key_id);
    // Scope rows go with the key (ON DELETE CASCADE).
    await db.delete(apiKeys).where(and(eq(apiKeys.accountId, principal.targetAccountId), eq(apiKeys.id, key.id)));
    return { message: `api key ${key.id} (${key.label}) deleted successfully` };
  },
});
