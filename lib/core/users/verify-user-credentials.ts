import type { Db } from '@/lib/db/client';
import { hashPassword, verifyPassword } from '@/lib/shared/crypto';
import { listUsersByEmail } from './internal/email-identity';

// Compared against when the email is unknown, so that both paths cost one scrypt.
let decoyHash: Promise<string> | null = null;

/**
 * Sign-in: the user when the email and password match, else null. Runs before any principal exists.
 * An address may have several identities (email-identity.ts): the password picks one, proven first.
 */
export async function verifyUserCredentials(db: Db, email: string, password: string) {
  const normalized = email.trim().toLowerCase();
  const candidates = await listUsersByEmail(db, normalized);
  if (!candidates.length) {
    decoyHash ??= hashPassword('decoy password');
    await verifyPassword(password, await decoyHash);
    return null;
  }
  for (const user of candidates) {
    if (await verifyPassword(password, user.passwordHash)) return user;
  }
  return null;
}
