import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, settings } from '@/lib/db/schema';
import { randomToken, safeEqual, sha256Hex } from '@/lib/shared/crypto';

const SETUP_TOKEN_KEY = 'setup_token_hash';

export async function hasAnyAccount(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return row.n > 0;
}

/**
 * First run: while no account exists, a one-time token guards the setup page, so that whoever
 * reaches a fresh instance first cannot claim it without access to the server's log or data
 * directory. Each start issues a new one; only its hash is stored.
 */
export async function issueSetupToken(db: Db): Promise<string | null> {
  if (await hasAnyAccount(db)) {
    await db.delete(settings).where(eq(settings.key, SETUP_TOKEN_KEY));
    return null;
  }
  const token = `setup-${randomToken(32)}`;
  await db
    .insert(settings)
    .values({ key: SETUP_TOKEN_KEY, value: sha256Hex(token) })
    .onConflictDoUpdate({ target: settings.key, set: { value: sha256Hex(token), updatedAt: new Date() } });
  return token;
}

/** Consumes the token inside the setup transaction; false when it is wrong or already used. */
export async function consumeSetupToken(db: Pick<Db, 'select' | 'delete'>, token: string): Promise<boolean> {
  const [row] = await db.select().from(settings).where(eq(settings.key, SETUP_TOKEN_KEY)).limit(1);
  if (!row || !safeEqual(row.value, sha256Hex(token))) return false;
  const deleted = await db.delete(settings).where(eq(settings.key, SETUP_TOKEN_KEY)).returning();
  return deleted.length === 1;
}
