import { and, eq, inArray } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys, apiKeyScopes } from '@/lib/db/schema';

export async function getApiKeyInAccount(db: DbOrTx, accountId: string, keyId: string) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId)))
    .limit(1);
  if (!row) throw notFound('api key not found');
  return row;
}

/** Scope rows of keys already fetched within the account (so no tenancy condition is needed here). */
export async function loadScopesOfKeys(db: DbOrTx, keyIds: string[]) {
  if (keyIds.length === 0) return [];
  return db.select().from(apiKeyScopes).where(inArray(apiKeyScopes.apiKeyId, keyIds));
}
