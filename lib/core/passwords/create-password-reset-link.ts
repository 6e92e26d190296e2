import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import { listUsersByEmail } from '@/lib/core/users/internal/email-identity';
import { defineVerb } from '@/lib/core/verb';
import { notFound } from '@/lib/shared/errors';
import { createResetToken } from './internal/reset-tokens';
import { requestPasswordResetSchema } from './schemas';

/**
 * `mailstead users reset-password EMAIL`: the operator makes a reset link to hand over (no mail
 * needed), for a locked-out owner above all. Unlike the public request, an unknown address is said
 * so: the operator already sees the database.
 */
export const createPasswordResetLink = defineVerb({
  scope: 'system',
  input: requestPasswordResetSchema,
  async run(ctx, input) {
    const [user] = await listUsersByEmail(ctx.db, input.email);
    if (!user) throw notFound(`no user has the email ${input.email}`);
    return ctx.db.transaction(async (tx) => {
      const link = await createResetToken(tx, ctx, user.id, ctx.now());
      await recordPersonEvent(
        tx,
        ctx,
        { id: user.id },
        {
          action: 'user.password_reset_link_create',
          resource: { type: 'user', id: user.id },
        },
      );
      return { email: user.email, url: link.url, expires_at: link.expiresAt.toISOString() };
    });
  },
});
