import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, memberships, userSessions, users } from '@/lib/db/schema';

/** What a session cookie carries: the user, the version it was issued under, and its session row. */
export type SessionClaims = { userId: string; sessionVersion: number; sessionId: string | null };

const SEEN_EVERY_MS = 60_000;

/**
 * A dashboard session is valid while the user exists, the version it carries is the user's current
 * one (a password reset bumps it) and its session row is not ended: one query. `last_seen_at` is
 * written only when a minute old, by a conditional update, so most checks write nothing.
 * A cookie without a session id (from before session rows) is refused: it could not be ended alone.
 */
export async function authenticateSession(db: Db, claims: SessionClaims, now = new Date()) {
  const { sessionId } = claims;
  if (sessionId === null) return null;
  const [row] = await db
    .select({ user: users, endedAt: userSessions.endedAt, lastSeenAt: userSessions.lastSeenAt })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, claims.userId)))
    .limit(1);
  if (!row || row.endedAt !== null || row.user.sessionVersion !== claims.sessionVersion) return null;
  if (now.getTime() - row.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
    const staleBefore = new Date(now.getTime() - SEEN_EVERY_MS);
    await db
      .update(userSessions)
      .set({ lastSeenAt: now })
      .where(and(eq(userSessions.id, sessionId), lt(userSessions.lastSeenAt, staleBefore)));
  }
  return row.user;
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
