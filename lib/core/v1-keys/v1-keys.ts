import { and, desc, eq } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import type { Db } from '@/lib/db/client';
import { accounts, v1Keys } from '@/lib/db/schema';
import { randomToken, sha256Hex } from '@/lib/shared/crypto';

export const V1_KEY_PREFIX = 'v1-';

export function presentV1Key(row: typeof v1Keys.$inferSelect) {
  return { object: 'v1_key' as const, id: row.id, account_id: row.accountId, label: row.label, hint: row.hint, last_used_at: row.lastUsedAt?.toISOString() ?? null, created_at: row.createdAt.toISOString() };
}

export async function insertV1Key(db: Db, accountId: string, label: string) {
  const secret = V1_KEY_PREFIX + randomToken(48);
  const [row] = await db.insert(v1Keys).values({ accountId, label, secretHash: sha256Hex(secret), hint: secret.slice(0, V1_KEY_PREFIX.length + 6) }).returning();
  return { ...presentV1Key(row), key: secret };
}

export async function listV1KeysOfAccount(db: Db, accountId: string) {
  return (await db.select().from(v1Keys).where(eq(v1Keys.accountId, accountId)).orderBy(desc(v1Keys.id))).map(presentV1Key);
}

export async function deleteV1KeyOfAccount(db: Db, accountId: string, keyId: string) {
  const deleted = await db.delete(v1Keys).where(and(eq(v1Keys.accountId, accountId), eq(v1Keys.id, keyId))).returning();
  if (!deleted.length) throw notFound('v1 key not found');
  return { message: `v1 key ${keyId} deleted` };
}

/** The account a v1 key belongs to, or null. Not a verb: it runs before any principal exists. */
export async function authenticateV1Key(db: Db, secret: string, now: Date) {
  if (!secret || secret.length > 200) return null;
  const [row] = await db
    .select({ key: v1Keys, status: accounts.status, deletedAt: accounts.deletedAt })
    .from(v1Keys)
    .innerJoin(accounts, eq(accounts.id, v1Keys.accountId))
    .where(eq(v1Keys.secretHash, sha256Hex(secret)))
    .limit(1);
  if (!row || row.deletedAt) return null;
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() > 5 * 60_000) {
    void db.update(v1Keys).set({ lastUsedAt: now }).where(eq(v1Keys.id, row.key.id)).catch(() => {});
  }
  return { keyId: row.key.id, accountId: row.key.accountId, accountStatus: row.status };
}
