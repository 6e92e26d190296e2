import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, apiKeys, apiKeyScopes } from '@/lib/db/schema';
import { hashApiKeySecret, SECRET_KEY_PREFIX } from './internal/generate-api-key-secret';

// last_used_at is a hint, not an audit log: refresh it at most this often to keep reads write-free.
const LAST_USED_REFRESH_MS = 5 * 60 * 1000;

export type AuthenticatedKey = {
  keyId: string;
  accountId: string;
  accountStatus: string;
  parentAccountId: string | null;
  scopes: string[];
  ipAllowList: string[];
  isSandbox: boolean;
  label: string;
};

/** Finds the key a bearer secret belongs to; null when there is none. Not a verb: it runs before any principal exists. */
export async function authenticateApiKey(db: Db, secret: string, now: Date): Promise<AuthenticatedKey | null> {
  if (!secret.startsWith(SECRET_KEY_PREFIX) || secret.length > 200) return null;
  // One query per request: the key, its account's state and its scopes.
  const [row] = await db
    .select({
      key: apiKeys,
      accountStatus: accounts.status,
      parentAccountId: accounts.parentAccountId,
      accountDeletedAt: accounts.deletedAt,
      scopes: sql<
        string[]
      >`coalesce((select array_agg(${apiKeyScopes.scope}) from ${apiKeyScopes} where ${apiKeyScopes.apiKeyId} = ${apiKeys.id}), '{}')`,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.secretHash, hashApiKeySecret(secret)))
    .limit(1);
  if (!row) return null;
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() > LAST_USED_REFRESH_MS) {
    const threshold = new Date(now.getTime() - LAST_USED_REFRESH_MS);
    // Fire and forget; the condition keeps concurrent requests from all writing.
    void db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, threshold))))
      .catch(() => {});
  }
  return {
    keyId: row.key.id,
    label: row.key.label,
    accountId: row.key.accountId,
    // A soft-deleted account (a deleted sub account) is told apart from an unknown key.
    accountStatus: row.accountDeletedAt ? 'deleted' : row.accountStatus,
    parentAccountId: row.parentAccountId,
    scopes: row.scopes,
    ipAllowList: row.key.ipAllowList,
    isSandbox: row.key.isSandbox,
  };
}
