import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { describeDevice } from './internal/describe-device';
import { listLiveSessions } from './internal/session-queries';
import { sessionUserOf } from './internal/session-user';
import type { UserSessionObject } from './schemas';

/** GET /internal/me/sessions: where the signed-in person is signed in, this device marked. */
export const listMySessions = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db, principal, now }) {
    const me = sessionUserOf(principal);
    const rows = await listLiveSessions(db, me.userId, now());
    const data: UserSessionObject[] = rows.map((row) => ({
      object: 'user_session',
      id: row.id,
      device: describeDevice(row.userAgent),
      user_agent: row.userAgent,
      ip: row.ip,
      created_at: row.createdAt.toISOString(),
      last_seen_at: row.lastSeenAt.toISOString(),
      is_current: row.id === me.sessionId,
    }));
    return { object: 'list' as const, data };
  },
});
