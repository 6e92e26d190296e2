import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { userSessions } from '@/lib/db/schema';
import { revokeUserSessions } from '@/lib/core/users/revoke-user-sessions';

/**
 * Sign-out: this session ends, the person's other devices stay signed in. A cookie from before
 * session rows (no id) can only be ended by the user's version, which ends every such cookie.
 */
export async function endUserSession(db: Db, userId: string, sessionId: string | null, now: Date): Promise<void> {
  if (sessionId === null) return revokeUserSessions(db, userId);
  await db
    .update(userSessions)
    .set({ endedAt: now })
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.endedAt)));
}
