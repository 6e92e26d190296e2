import { and, eq } from 'drizzle-orm';
import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { endSessionsOf } from '@/lib/core/user-sessions/internal/session-queries';
import { sessionUserOf } from '@/lib/core/user-sessions/internal/session-user';
import type { VerbContext } from '@/lib/core/context';
import { defineVerb } from '@/lib/core/verb';
import { users } from '@/lib/db/schema';
import { hashPassword, NO_PASSWORD_HASH, verifyPassword } from '@/lib/shared/crypto';
import { AppError, conflict, invalidInput } from '@/lib/shared/errors';
import { changePasswordSchema } from './schemas';

/**
 * POST /internal/me/password: the signed-in person, knowing their password, sets a new one; a person
 * who has none (made by single sign-on) sets their first without one. Every other session of theirs
 * ends; this one stays. Wrong current passwords count like failed sign-ins, per client address and
 * per email, so a borrowed session cannot guess the password.
 */
export const changePassword = defineVerb({
  scope: 'any',
  input: changePasswordSchema,
  async run(ctx, input) {
    const me = sessionUserOf(ctx.principal);
    const [user] = await ctx.db.select().from(users).where(eq(users.id, me.userId)).limit(1);
    if (!user) throw new AppError('unauthenticated', 'a dashboard session is required');
    if (user.passwordHash !== NO_PASSWORD_HASH) await checkCurrentPassword(ctx, user, input.current_password);
    const passwordHash = await hashPassword(input.new_password);
    return ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      // Compared with what was read: a first password set twice at once is set once, never over a real one.
      const [changed] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: now })
        .where(and(eq(users.id, me.userId), eq(users.passwordHash, user.passwordHash)))
        .returning({ id: users.id });
      if (!changed) throw conflict('your password was changed meanwhile: reload the page and try again');
      const ended = await endSessionsOf(tx, me.userId, now, { keepSessionId: me.sessionId });
      await recordPersonEvent(
        tx,
        ctx,
        { id: me.userId },
        {
          action: 'user.password_change',
          resource: { type: 'user', id: me.userId },
          changes: ['password'],
        },
      );
      return { message: 'your password is changed', other_sessions_ended: ended.length };
    });
  },
});

async function checkCurrentPassword(
  ctx: VerbContext,
  user: { email: string; passwordHash: string },
  currentPassword: string | undefined,
): Promise<void> {
  if (!currentPassword) throw invalidInput('current_password: is required', 'current_password');
  const attempt = await ctx.passwordAttempts.attempt(ctx.principal.clientIp ?? 'unknown', user.email, async () =>
    (await verifyPassword(currentPassword, user.passwordHash)) ? true : null,
  );
  if (attempt.isRateLimited)
    throw new AppError('rate_limited', 'too many wrong passwords: wait a few minutes and try again', undefined, {
      'Retry-After': '90',
    });
  if (!attempt.result) throw invalidInput('current_password: is not your current password', 'current_password');
}
