import { and, eq } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { getApiKeyInAccount, loadScopesOfKeys } from './internal/queries';
import { apiKeyIdSchema } from './schemas';

/** Only a caller holding every scope of the key may delete it. */
export const deleteApiKey = defineVerb({
  scope: 'api-keys:delete',
  input: z.object({ key_id: apiKeyIdSchema }),
  async run({ db, principal }, input) {
    return deleteApiKeyInAccount(db, principal, principal.targetAccountId, input.key_id);
  },
});

/** Shared with the sub-account key verbs, where `accountId` is the child's and the caller a parent key. */
export async function deleteApiKeyInAccount(db: DbOrTx, principal: Principal, accountId: string, keyId: string) {
  const key = await getApiKeyInAccount(db, accountId, keyId);
  authorizeHoldingEveryScopeOf(principal, {
    kind: 'api_key',
    scopes: (await loadScopesOfKeys(db, [key.id])).map((s) => s.scope),
  });
  // Scope rows go with the key (ON DELETE CASCADE).
  await db.delete(apiKeys).where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, key.id)));
  return { message: `api key ${key.id} (${key.label}) deleted successfully` };
}
