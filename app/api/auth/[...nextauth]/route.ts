import NextAuth from 'next-auth';
import { authOptions } from '@/lib/dashboard/auth-options';
import { withSessionCheck } from '@/lib/dashboard/session-check';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '@/lib/shared/database-unavailable';

const nextAuth = NextAuth(authOptions);

// During a database outage next-auth's answer would clear the cookie: drop it and say 503 instead.
async function handler(request: Request, context: unknown): Promise<Response> {
  const { result, isDatabaseUnavailable } = await withSessionCheck(
    () => nextAuth(request, context) as Promise<Response>,
  );
  if (!isDatabaseUnavailable) return result;
  return Response.json(
    { message: DATABASE_UNAVAILABLE_MESSAGE },
    { status: 503, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' } },
  );
}

export { handler as GET, handler as POST };
