import 'server-only';
import { getServerSession, type Session } from 'next-auth';
import { authOptions } from './auth-options';
import { DATABASE_UNAVAILABLE, withSessionCheck } from './session-check';

/** The signed-in person for a server-rendered page, or DATABASE_UNAVAILABLE when it cannot be checked now. */
export async function readDashboardSession(): Promise<Session | null | typeof DATABASE_UNAVAILABLE> {
  const { result, isDatabaseUnavailable } = await withSessionCheck(() => getServerSession(authOptions));
  return isDatabaseUnavailable ? DATABASE_UNAVAILABLE : result;
}
