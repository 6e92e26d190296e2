import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { headers } from 'next/headers';
import { allowSingleSignOn, SINGLE_SIGN_ON_PROVIDER_ID, singleSignOnProviders } from './oidc-provider';
import { dashboardAuth } from './server-auth';
import { noteSessionCheckFailure } from './session-check';

declare module 'next-auth' {
  interface Session {
    user?: { id: string; email: string; name?: string | null };
  }
  interface User {
    sessionVersion?: number;
  }
}

/**
 * Sign-in for people: email and password of a user, a JWT session cookie (SameSite=Lax, Secure,
 * HttpOnly) that carries the user's session version and the id of its session row (`sid`). Every
 * use checks both, so a session ended from any device (or signed out) dies at once, copies included.
 */
export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: 'jwt', maxAge: 7 * 24 * 3600 },
  pages: { signIn: '/sign-in', error: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email',
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
        code: { label: 'Code', type: 'text' },
      },
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const clientIp = String(req?.headers?.['x-mailstead-client-ip'] ?? 'unknown');
        const requestId = req?.headers?.['x-request-id'];
        const result = await dashboardAuth().verifyCredentials(
          credentials.email,
          credentials.password,
          credentials.code?.trim() || undefined,
          clientIp,
          typeof requestId === 'string' ? requestId : undefined,
        );
        if (!result.ok) {
          // The sign-in page reads these names (sign-in-form.tsx) and asks for the code when told to.
          if (result.reason === 'rate_limited') throw new Error('TooManyAttempts');
          if (result.reason === 'code_required') throw new Error('TwoFactorRequired');
          if (result.reason === 'code_invalid') throw new Error('TwoFactorInvalid');
          if (result.reason === 'code_rate_limited') throw new Error('TooManyCodeAttempts');
          return null;
        }
        return {
          id: result.user.id,
          email: result.user.email,
          name: result.user.name,
          sessionVersion: result.user.sessionVersion,
        };
      },
    }),
    ...singleSignOnProviders(),
  ],
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== SINGLE_SIGN_ON_PROVIDER_ID) return true;
      return allowSingleSignOn(user, profile);
    },
    async jwt({ token, user }) {
      if (user) {
        // Any provider comes through here once per sign-in: the session row is made here, not in authorize.
        const request = await headers();
        const sid = await dashboardAuth().startSession(user.id, {
          ip: request.get('x-mailstead-client-ip'),
          userAgent: request.get('user-agent'),
        });
        return { ...token, userId: user.id, sessionVersion: user.sessionVersion ?? 0, sid };
      }
      if (typeof token.userId !== 'string' || typeof token.sessionVersion !== 'number') return {};
      const sessionId = typeof token.sid === 'string' ? token.sid : null;
      try {
        const claims = { userId: token.userId, sessionVersion: token.sessionVersion, sessionId };
        return (await dashboardAuth().isSessionValid(claims)) ? token : {};
      } catch (error) {
        // next-auth signs out on any throw; the caller turns a noted outage into a 503 instead.
        noteSessionCheckFailure(error);
        throw error;
      }
    },
    async session({ session, token }) {
      if (typeof token.userId !== 'string') return { expires: session.expires };
      return {
        expires: session.expires,
        user: { id: token.userId, email: String(token.email ?? ''), name: token.name ?? null },
      };
    },
  },
  events: {
    async signOut({ token }) {
      if (typeof token?.userId === 'string')
        await dashboardAuth().endSession(token.userId, typeof token.sid === 'string' ? token.sid : null);
    },
  },
};
