import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, memberships, users } from '@/lib/db/schema';

/**
 * A dashboard session is valid while the user exists and the session version it carries is the
 * user's current one (signing out bumps it, which revokes every copy of the token).
 */
export async function authenticateSession(db: Db, userId: string, sessionVersion: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.sessionVersion !== sessionVersion) return null;
  return user;
}

/** Where the dashboard lands after sign-in: the user's oldest account. */
export async function findFirstAccountId(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, userId), isNull(accounts.deletedAt)))
    .orderBy(asc(accounts.createdAt))
    .limit(1);
  return row?.id ?? null;
}
