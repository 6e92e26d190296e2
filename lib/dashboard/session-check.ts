import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';

/**
 * next-auth answers any failure of the session callback by clearing the cookie: a database outage
 * would sign everyone out. The callback notes the outage here instead, so the caller can answer
 * "cannot check right now" (503, an outage page) and leave the cookie alone. Never "allowed".
 */
type SessionCheck = { isDatabaseUnavailable: boolean };

const STORE_KEY = Symbol.for('mailstead.sessionCheck');
const store = ((globalThis as Record<symbol, unknown>)[STORE_KEY] ??=
  new AsyncLocalStorage<SessionCheck>()) as AsyncLocalStorage<SessionCheck>;

export const DATABASE_UNAVAILABLE = 'database-unavailable';

/** Called by the jwt callback when checking the session failed; true when that was an outage. */
export function noteSessionCheckFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  const check = store.getStore();
  if (check) check.isDatabaseUnavailable = true;
  return true;
}

/** Runs a next-auth call and says whether the database was unreachable while it checked the session. */
export async function withSessionCheck<T>(
  run: () => Promise<T>,
): Promise<{ result: T; isDatabaseUnavailable: boolean }> {
  const check: SessionCheck = { isDatabaseUnavailable: false };
  const result = await store.run(check, run);
  return { result, isDatabaseUnavailable: check.isDatabaseUnavailable };
}
