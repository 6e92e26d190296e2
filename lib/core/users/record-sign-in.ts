import { anonymousPrincipal } from '@/lib/auth/principal';
import { recordPersonEvent } from '@/lib/core/audit/record-person-event';
import type { Db } from '@/lib/db/client';
import { listUsersByEmail } from './internal/email-identity';

/**
 * A sign-in of a known person, or a failed second step of one, in the log of each of their accounts.
 * No session exists yet: the actor is the person, the address the one they came from.
 */
export async function recordSignIn(
  db: Db,
  user: { id: string; email: string },
  action: 'user.sign_in' | 'user.sign_in_failed',
  request: { clientIp: string; requestId?: string },
): Promise<void> {
  await db.transaction((tx) =>
    recordPersonEvent(tx, { principal: anonymousPrincipal(request.clientIp), requestId: request.requestId }, user, {
      action,
      resource: { type: 'user', id: user.id },
    }),
  );
}

/** A wrong password for an address that is a user's: `user.sign_in_failed` for its user (proven first). */
export async function recordWrongPassword(
  db: Db,
  email: string,
  request: { clientIp: string; requestId?: string },
): Promise<void> {
  const [known] = await listUsersByEmail(db, email.trim().toLowerCase());
  if (known) await recordSignIn(db, known, 'user.sign_in_failed', request);
}
