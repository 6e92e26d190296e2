import type { SubscriptionStatus } from '@/lib/core/lists/schemas';
import { randomToken, sha256Hex } from '@/lib/shared/crypto';

/**
 * What a signup makes of a membership in one of the form's lists, or null to leave it: a new one is
 * unconfirmed (double opt-in) or confirmed; a confirmed one stays; an unsubscribed one was the
 * contact's own choice and a complained one is frozen (R9), so neither is touched by anyone's post.
 */
export function signupStatusFor(
  current: SubscriptionStatus | null,
  isDoubleOptIn: boolean,
): 'unconfirmed' | 'confirmed' | null {
  if (current === null) return isDoubleOptIn ? 'unconfirmed' : 'confirmed';
  if (current === 'unconfirmed' && !isDoubleOptIn) return 'confirmed';
  return null;
}

/** Whether a membership waits for the confirmation link after a double opt-in signup. */
export function isAwaitingConfirmation(status: SubscriptionStatus | null): boolean {
  return status === 'unconfirmed';
}

const TOKEN_LENGTH = 43;
const TOKEN_SHAPE = /^[A-Za-z0-9]{43}$/;

/** A new confirmation link token (256 bits) and the hash that is all the database keeps of it. */
export function newConfirmationToken(): { token: string; hash: string } {
  const token = randomToken(TOKEN_LENGTH);
  return { token, hash: sha256Hex(token) };
}

/** The hash to look a token up by; null for anything that is not the shape we make (no query for junk). */
export function confirmationTokenHash(token: string): string | null {
  return TOKEN_SHAPE.test(token) ? sha256Hex(token) : null;
}

export type ConfirmationState = 'usable' | 'used' | 'expired';

/** A link works once, until it expires; used wins over expired, so a second click reads "already confirmed". */
export function confirmationState(link: { usedAt: Date | null; expiresAt: Date }, now: Date): ConfirmationState {
  if (link.usedAt) return 'used';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'usable';
}
