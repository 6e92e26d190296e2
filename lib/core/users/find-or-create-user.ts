import { eq } from 'drizzle-orm';
import { conflict } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';

/**
 * Users are global. An existing user is only reused when the password matches, so that nobody can
 * attach someone else's identity to an account by knowing their email.
 */
export async function findOrCreateUser(db: DbOrTx, input: { email: string; password: string; name?: string | null }) {
  const [existing] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  if (existing) {
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      throw conflict(`a user with email ${input.email} already exists and the password does not match`, 'owner_password');
    }
    return { user: existing, isNew: false };
  }
  const [user] = await db
    .insert(users)
    .values({ email: input.email, name: input.name ?? null, passwordHash: await hashPassword(input.password) })
    .onConflictDoNothing()
    .returning();
  if (!user) throw conflict(`a user with email ${input.email} was created at the same time; try again`, 'owner_email');
  return { user, isNew: true };
}
