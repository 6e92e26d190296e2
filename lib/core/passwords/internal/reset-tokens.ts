import { eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import type { DbOrTx } from '@/lib/db/client';
import { passwordResetTokens, users } from '@/lib/db/schema';
import { randomToken, sha256Hex } from '@/lib/shared/crypto';
import { conflict, forbidden, notFound } from '@/lib/shared/errors';

export const hashResetToken = (token: string) => sha256Hex(`password-reset:${token}`);

export const resetUrl = (services: Pick<Services, 'config'>, token: string) =>
  `${services.config.publicUrl.origin}/reset-password/${token}`;

/** A new single-use link for the user: the token goes to the person, only its hash to the database. */
export async function createResetToken(
  db: DbOrTx,
  services: Pick<Services, 'config'>,
  userId: string,
  now: Date,
): Promise<{ token: string; url: string; expiresAt: Date }> {
  const token = randomToken(43);
  const expiresAt = new Date(now.getTime() + services.config.passwordResetTtlSeconds * 1000);
  await db.insert(passwordResetTokens).values({ userId, tokenHash: hashResetToken(token), createdAt: now, expiresAt });
  return { token, url: resetUrl(services, token), expiresAt };
}

/**
 * The reset a link's token names, while it can be used; across users, since the token is the
 * credential (hence unsafe). Locked for the caller's transaction when `forUpdate`, so a link is
 * spent once however many tabs submit it. Unknown links are 404, used ones 409, expired ones 403.
 */
export async function unsafeGetUsableReset(db: DbOrTx, token: string, now: Date, options: { forUpdate: boolean }) {
  const query = db
    .select({ reset: passwordResetTokens, email: users.email })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(eq(passwordResetTokens.tokenHash, hashResetToken(token)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: passwordResetTokens }) : await query;
  if (!row) throw notFound('this reset link is not valid: check that you copied all of it, or ask for a new one');
  if (row.reset.usedAt) throw conflict('this reset link has already been used: ask for a new one if you need to');
  if (row.reset.expiresAt <= now) throw forbidden('this reset link has expired: ask for a new one');
  return row;
}
