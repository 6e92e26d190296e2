import type { Db } from '@/lib/db/client';
import { userSessions } from '@/lib/db/schema';

// Kept short: a User-Agent is shown, never parsed again, and a client may send anything.
const MAX_USER_AGENT = 512;

/** A new dashboard sign-in (any provider): its row, whose id the session cookie carries. */
export async function startUserSession(
  db: Db,
  input: { userId: string; ip: string | null; userAgent: string | null; now: Date },
): Promise<string> {
  const [row] = await db
    .insert(userSessions)
    .values({
      userId: input.userId,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      createdAt: input.now,
      lastSeenAt: input.now,
    })
    .returning({ id: userSessions.id });
  return row.id;
}
