import type { Principal } from '@/lib/auth/principal';
import { AppError } from '@/lib/shared/errors';

/** The signed-in person (and their session) of a session-only verb; anything else is refused. */
export function sessionUserOf(principal: Principal): { userId: string; sessionId: string | null } {
  if (principal.kind !== 'session' || !principal.userId)
    throw new AppError('unauthenticated', 'a dashboard session is required');
  return { userId: principal.userId, sessionId: principal.sessionId ?? null };
}
