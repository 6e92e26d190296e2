import { defineVerb } from '@/lib/core/verb';
import { AppError } from '@/lib/shared/errors';
import { mailResetLink } from './internal/mail-reset-link';
import { requestPasswordResetSchema } from './schemas';

// Sign-in's limiter refills one attempt every 90 seconds.
const RETRY_AFTER_SECONDS = '90';

/**
 * POST /internal/password-resets, before any session: mails a reset link when the address is a
 * user's and SYSTEM_SENDER is set. The answer is the same whether or not the address exists, and
 * so is its timing: the lookup and the mail happen after the answer. Counted per client address and
 * per email like sign-in, every request (a success proves nothing here).
 */
export const requestPasswordReset = defineVerb({
  scope: 'any',
  input: requestPasswordResetSchema,
  async run(ctx, input) {
    const attempt = await ctx.resetRequests.attempt(ctx.principal.clientIp ?? 'unknown', input.email, () =>
      Promise.resolve(null),
    );
    if (attempt.isRateLimited)
      throw new AppError('rate_limited', 'too many reset requests: wait a few minutes and try again', undefined, {
        'Retry-After': RETRY_AFTER_SECONDS,
      });
    const isMailed = ctx.config.systemSender !== null;
    if (isMailed)
      mailResetLink(ctx, input.email).catch((error: unknown) =>
        ctx.logger.error({ err: error }, 'password reset link could not be queued'),
      );
    return {
      delivery: isMailed ? ('email' as const) : ('operator' as const),
      message: isMailed
        ? 'if this address belongs to a Mailstead user, a reset link is on its way: it works once, for an hour'
        : 'this server sends no mail: an operator can make a reset link with `npx mailstead users reset-password EMAIL`',
    };
  },
});
