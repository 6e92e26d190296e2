import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { userSessions } from '@/lib/db/schema';
import { SESSION_MAX_IDLE_MS } from './internal/session-queries';

// Ended and idle sessions are shown to nobody; kept a while for whoever looks into the database.
const KEEP_MS = 30 * 24 * 3600 * 1000;

/** Scheduled job: drops sessions ended, or unusable, for 30 days. Unsafe: every person's; only the scheduler calls it. */
export async function unsafePurgeEndedSessions(db: Db, now: Date): Promise<number> {
  const endedBefore = new Date(now.getTime() - KEEP_MS);
  const rows = await db
    .delete(userSessions)
    .where(
      or(
        and(isNotNull(userSessions.endedAt), lt(userSessions.endedAt, endedBefore)),
        lt(userSessions.lastSeenAt, new Date(endedBefore.getTime() - SESSION_MAX_IDLE_MS)),
      ),
    )
    .returning({ id: userSessions.id });
  return rows.length;
}
