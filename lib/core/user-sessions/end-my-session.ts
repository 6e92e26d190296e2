import { defineVerb } from '@/lib/core/verb';
import { notFound } from '@/lib/shared/errors';
import { endSessionsOf } from './internal/session-queries';
import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { sessionUserOf } from './internal/session-user';
import { sessionPathSchema } from './schemas';

/** DELETE /internal/me/sessions/{session_id}: that device is signed out at its next request. */
export const endMySession = defineVerb({
  scope: 'any',
  input: sessionPathSchema,
  async run(ctx, input) {
    const me = sessionUserOf(ctx.principal);
    return ctx.db.transaction(async (tx) => {
      const ended = await endSessionsOf(tx, me.userId, ctx.now(), { onlySessionId: input.session_id });
      if (!ended.length) throw notFound('session not found: it may have ended already');
      await recordPersonEvent(
        tx,
        ctx,
        { id: me.userId },
        {
          action: 'user.session_end',
          resource: { type: 'user_session', id: input.session_id },
        },
      );
      return { message: 'the session has ended', ended: ended.length };
    });
  },
});
