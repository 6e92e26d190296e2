import { eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
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

export async function requirePassword(user: UserRow, password: string): Promise<void> {
  if (!(await verifyPassword(password, user.passwordHash)))
    throw new AppError('forbidden', 'password: that is not your current password', 'password');
}
