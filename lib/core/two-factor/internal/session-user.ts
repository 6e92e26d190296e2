import { eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { VerbContext } from '@/lib/core/context';
import type { DbOrTx } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
import { verifyPassword } from '@/lib/shared/crypto';

export type UserRow = typeof users.$inferSelect;

export const TOTP_SECRET_PURPOSE = 'two-factor-totp';

/** The person behind a dashboard session: two-factor settings are theirs, never an API key's. */
export async function getSessionUser(db: DbOrTx, principal: Principal): Promise<UserRow> {
  if (principal.kind !== 'session' || !principal.userId)
    throw new AppError('forbidden', 'two-factor sign-in is managed by the person, from a dashboard session');
  const [user] = await db.select().from(users).where(eq(users.id, principal.userId)).limit(1);
  if (!user) throw new AppError('unauthenticated', 'a dashboard session is required');
  return user;
}

/**
 * A proof asked of a signed-in person (their password, a current code), counted like sign-in per
 * address and per person: a stolen session cookie must not be a way to guess either.
 */
export async function requireProof(
  ctx: Pick<VerbContext, 'passwordAttempts' | 'principal'>,
  user: UserRow,
  check: () => Promise<boolean>,
  refusal: AppError,
): Promise<void> {
  const attempt = await ctx.passwordAttempts.attempt(ctx.principal.clientIp ?? 'unknown', user.email, async () =>
    (await check()) ? true : null,
  );
  if (attempt.isRateLimited)
    throw new AppError('rate_limited', 'too many wrong attempts: wait a few minutes and try again', undefined, {
      'Retry-After': '90',
    });
  if (!attempt.result) throw refusal;
}

export async function requirePassword(
  ctx: Pick<VerbContext, 'passwordAttempts' | 'principal'>,
  user: UserRow,
  password: string,
): Promise<void> {
  await requireProof(
    ctx,
    user,
    () => verifyPassword(password, user.passwordHash),
    new AppError('forbidden', 'password: that is not your current password', 'password'),
  );
}
