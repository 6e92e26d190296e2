import { eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { users } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { startUserSession } from './start-user-session';

/**
 * A session row for a user, made over the control socket (whose only client is the server's own
 * OS user, who holds the master key). The id opens nothing by itself: a cookie naming it must be
 * signed with a key derived from the master key. It shows on the person's Sessions list, where they can end it.
 */
export async function startOperatorSession(
  services: Pick<Services, 'db' | 'now'>,
  args: Record<string, unknown>,
): Promise<{ session_id: string }> {
  const userId = String(args.user_id ?? '');
  if (!isUuid(userId)) throw invalidInput('user_id: must be a user id', 'user_id');
  const [user] = await services.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw invalidInput(`user_id: no user ${userId}`, 'user_id');
  const sessionId = await startUserSession(services.db, {
    userId,
    ip: null,
    userAgent: 'Mailstead operator',
    now: services.now(),
  });
  return { session_id: sessionId };
}
