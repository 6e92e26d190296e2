import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, v1Keys } from '@/lib/db/schema';
import { sha256Hex } from '@/lib/shared/crypto';

// last_used_at is a hint, not an audit log: refresh it at most this often to keep reads write-free.
const LAST_USED_REFRESH_MS = 5 * 60 * 1000;

/**
 * The account a v1 key belongs to, or null. Not a verb: it runs before any principal exists, and it
 * looks the secret's hash up across accounts, which is what authentication is.
 */
export async function authenticateV1Key(db: Db, secret: string, now: Date) {
  if (!secret || secret.length > 200) return null;
  const [row] = await db
    .select({ key: v1Keys, status: accounts.status, deletedAt: accounts.deletedAt })
    .from(v1Keys)
    .innerJoin(accounts, eq(accounts.id, v1Keys.accountId))
    .where(eq(v1Keys.secretHash, sha256Hex(secret)))
    .limit(1);
  if (!row || row.deletedAt) return null;
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() > LAST_USED_REFRESH_MS) {
    void db
      .update(v1Keys)
      .set({ lastUsedAt: now })
      .where(eq(v1Keys.id, row.key.id))
      .catch(() => {});
  }
  return { keyId: row.key.id, accountId: row.key.accountId, accountStatus: row.status };
}
