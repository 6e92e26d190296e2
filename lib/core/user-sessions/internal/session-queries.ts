import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { userSessions, users } from '@/lib/db/schema';

// The cookie lives 7 days from its last use: a session not seen for longer cannot come back.
export const SESSION_MAX_IDLE_MS = 7 * 24 * 3600 * 1000;

const isLive = (userId: string, now: Date) =>
  and(
    eq(userSessions.userId, userId),
    isNull(userSessions.endedAt),
    gt(userSessions.lastSeenAt, new Date(now.getTime() - SESSION_MAX_IDLE_MS)),
  );

/** A person's sessions that can still be used, the most recently seen first. */
export async function listLiveSessions(db: DbOrTx, userId: string, now: Date) {
  return db
    .select()
    .from(userSessions)
    .where(isLive(userId, now))
    .orderBy(desc(userSessions.lastSeenAt), desc(userSessions.id));
}

/**
 * Ends a person's sessions, all of them or all but `keepSessionId`: the ids it ended. Tenancy is
 * the user id in the where clause: nobody ends another person's session through here by its id.
 */
export async function endSessionsOf(
  db: DbOrTx,
  userId: string,
  now: Date,
  options: { keepSessionId?: string | null; onlySessionId?: string } = {},
): Promise<string[]> {
  const rows = await db
    .update(userSessions)
    .set({ endedAt: now })
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.endedAt),
        options.keepSessionId ? ne(userSessions.id, options.keepSessionId) : undefined,
        options.onlySessionId ? eq(userSessions.id, options.onlySessionId) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
  return rows.map((row) => row.id);
}

/** Every session of a person, with no exception: their rows, and any cookie without one (by the version). */
export async function endEverySessionOf(db: DbOrTx, userId: string, now: Date): Promise<string[]> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: now })
    .where(eq(users.id, userId));
  return endSessionsOf(db, userId, now);
}
