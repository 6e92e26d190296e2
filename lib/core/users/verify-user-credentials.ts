import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';

// Compared against when the email is unknown, so that both paths cost one scrypt.
let decoyHash: Promise<string> | null = null;

/** Sign-in: the user when the email and password match, else null. Runs before any principal exists. */
export async function verifyUserCredentials(db: Db, email: string, password: string) {
  const normalized = email.trim().toLowerCase();
  const [user] = await db.select().from(users).where(eq(users.email, normalized)).limit(1);
  if (!user) {
    decoyHash ??= hashPassword('decoy password');
    await verifyPassword(password, await decoyHash);
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : null;
}
