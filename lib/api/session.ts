import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { getToken } from 'next-auth/jwt';
import type { SessionClaims } from '@/lib/core/users/authenticate-session';
import { isUuid } from '@/lib/shared/ids';

/** The dashboard's session settings, shared by next-auth (which issues tokens) and the API (which reads them). */
export type SessionSettings = { secret: string; cookieName: string; publicOrigin: string };

export function sessionSettings(secret: string, publicUrl: URL): SessionSettings {
  const isSecure = publicUrl.protocol === 'https:';
  return {
    secret,
    cookieName: `${isSecure ? '__Secure-' : ''}next-auth.session-token`,
    publicOrigin: publicUrl.origin,
  };
}

export function hasSessionCookie(c: Context, settings: SessionSettings): boolean {
  const cookies = getCookie(c);
  return Object.keys(cookies).some(
    (name) => name === settings.cookieName || name.startsWith(`${settings.cookieName}.`),
  );
}

/** Decodes the next-auth session token (a JWE, possibly split over several cookies); null when invalid. */
export async function readSessionClaims(c: Context, settings: SessionSettings): Promise<SessionClaims | null> {
  const token = await getToken({
    req: { cookies: getCookie(c), headers: {} } as never,
    secret: settings.secret,
    cookieName: settings.cookieName,
    secureCookie: settings.cookieName.startsWith('__Secure-'),
    logger: { error: () => {}, warn: () => {}, debug: () => {} } as never,
  }).catch(() => null);
  if (!token || typeof token.userId !== 'string' || typeof token.sessionVersion !== 'number') return null;
  const sessionId = typeof token.sid === 'string' && isUuid(token.sid) ? token.sid : null;
  return { userId: token.userId, sessionVersion: token.sessionVersion, sessionId };
}

/**
 * Cookie-authenticated writes must come from our own pages: the browser's Sec-Fetch-Site says so,
 * or the Origin header is ours. A request with neither is refused.
 */
export function isSameOriginRequest(c: Context, settings: SessionSettings): boolean {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite) return fetchSite === 'same-origin';
  const origin = c.req.header('origin');
  return origin !== undefined && origin === settings.publicOrigin;
}
