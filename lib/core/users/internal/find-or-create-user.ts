import { conflict } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';
import { findProvenUser } from './email-identity';

/**
 * The operator's CLI and the setup page vouch for the address, so they deal in proven users only
 * (email-identity.ts). An existing one is only reused when the password matches, so that nobody
 * can attach someone else's identity to an account by knowing their email.
 */
export async function findOrCreateUser(db: DbOrTx, input: { email: string; password: string; name?: string | null }) {
  const existing = await findProvenUser(db, input.email);
  if (existing) {
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      throw conflict(
        `a user with email ${input.email} already exists and the password does not match`,
        'owner_password',
      );
    }
    return { user: existing, isNew: false };
  }
  const [user] = await db
    .insert(users)
    .values({
      email: input.email,
      name: input.name ?? null,
      passwordHash: await hashPassword(input.password),
      emailVerifiedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning();
  if (!user) throw conflict(`a user with email ${input.email} was created at the same time; try again`, 'owner_email');
  return { user, isNew: true };
}
