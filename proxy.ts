import { NextResponse, type NextRequest } from 'next/server';
import { REQUESTED_PATH_HEADER } from '@/lib/dashboard/callback-path';

/**
 * Tells the dashboard's layouts which page was asked for (layouts cannot see the URL), so that a
 * visitor sent to sign in comes back to it. Any value a client sent in this header is replaced.
 */
export function proxy(request: NextRequest) {
  const url = request.nextUrl.clone();
  url.searchParams.delete('_rsc');
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${url.pathname}${url.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ['/((?!_next/|api/|sign-in|setup|invite/|forgot-password|reset-password/|favicon\\.ico|icon).*)'],
};
