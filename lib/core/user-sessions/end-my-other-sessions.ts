import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { endSessionsOf } from './internal/session-queries';
import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { sessionUserOf } from './internal/session-user';

/** POST /internal/me/sessions/end-others: "sign out everywhere else"; this device stays signed in. */
export const endMyOtherSessions = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run(ctx) {
    const me = sessionUserOf(ctx.principal);
    return ctx.db.transaction(async (tx) => {
      const ended = await endSessionsOf(tx, me.userId, ctx.now(), { keepSessionId: me.sessionId });
      if (ended.length)
        await recordPersonEvent(
          tx,
          ctx,
          { id: me.userId },
          {
            action: 'user.session_end',
            resource: { type: 'user', id: me.userId },
            changes: ['other_sessions'],
          },
        );
      return { message: `${ended.length} other session(s) ended`, ended: ended.length };
    });
  },
});
