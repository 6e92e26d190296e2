import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { users } from '@/lib/db/schema';

/**
 * Who an email address is. A user whose address was proven (a mailed invitation link, the setup
 * page, the operator's CLI) is the one global identity for it. A user made from an invitation link
 * handed to the inviter proved nothing, so it is limited to that account: one per account and
 * address, never added to or reused by another account, its password opening only that account.
 * Another account's invitation therefore makes its own identity: proven if its link was mailed.
 */
export type UserRow = typeof users.$inferSelect;

export async function findProvenUser(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNotNull(users.emailVerifiedAt)))
    .limit(1);
  return user ?? null;
}

/** The identity an invitation of `accountId` joins: the proven user, else the account's own unproven one. */
export async function findUserForAccount(db: DbOrTx, email: string, accountId: string): Promise<UserRow | null> {
  const proven = await findProvenUser(db, email);
  if (proven) return proven;
  const [unproven] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.emailVerifiedAt), eq(users.limitedToAccountId, accountId)))
    .limit(1);
  return unproven ?? null;
}

/** Sign-in: every identity of the address, the proven one first; the password says which one it is. */
export async function listUsersByEmail(db: DbOrTx, email: string): Promise<UserRow[]> {
  const rows = await db.select().from(users).where(eq(users.email, email)).orderBy(asc(users.createdAt), asc(users.id));
  return [...rows.filter((row) => row.emailVerifiedAt), ...rows.filter((row) => !row.emailVerifiedAt)];
}
