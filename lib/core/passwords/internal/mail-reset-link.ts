import type { VerbContext } from '@/lib/core/context';
import { listUsersByEmail } from '@/lib/core/users/internal/email-identity';
import { createResetToken } from './reset-tokens';
import { sendResetMail } from './send-reset-mail';

/**
 * A reset request's work, after its answer: a link for the address's user, mailed. An address with
 * several identities (email-identity.ts) gets a link for the proven one, else the oldest. False when
 * nothing was mailed (no such user, or the system sender cannot send).
 */
export async function mailResetLink(ctx: VerbContext, email: string): Promise<boolean> {
  const [user] = await listUsersByEmail(ctx.db, email);
  if (!user) return false;
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const link = await createResetToken(tx, ctx, user.id, now);
    return sendResetMail(ctx, tx, {
      email: user.email,
      name: user.name,
      url: link.url,
      expiresAt: link.expiresAt,
      now,
    });
  });
}
