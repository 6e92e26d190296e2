import { and, eq, gt, isNull } from 'drizzle-orm';
import type { VerbContext } from '@/lib/core/context';
import { passwordResetTokens } from '@/lib/db/schema';
import { listUsersByEmail } from '@/lib/core/users/internal/email-identity';
import { createResetToken } from './reset-tokens';
import { sendResetMail } from './send-reset-mail';

/**
 * A reset request's work, after its answer: a link for the address's user, mailed. An address with
 * several identities (email-identity.ts) gets a link for the proven one, else the oldest. False when
 * nothing was mailed (no such user, a link mailed in the last RESEND_AFTER_MS, or the system sender
 * cannot send): someone asking for another person's address cannot fill their inbox.
 */
// The link already mailed works for an hour; a second one within minutes helps nobody.
const RESEND_AFTER_MS = 5 * 60 * 1000;

export async function mailResetLink(ctx: VerbContext, email: string): Promise<boolean> {
  const [user] = await listUsersByEmail(ctx.db, email);
  if (!user) return false;
  const now = ctx.now();
  const [recent] = await ctx.db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.userId, user.id),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.createdAt, new Date(now.getTime() - RESEND_AFTER_MS)),
      ),
    )
    .limit(1);
  if (recent) return false;
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
