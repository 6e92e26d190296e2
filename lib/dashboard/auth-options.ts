import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
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
 * HttpOnly) that carries the user's session version. Every use checks that version, and signing out
 * bumps it, so a copied cookie dies with the session.
 */
export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: 'jwt', maxAge: 7 * 24 * 3600 },
  pages: { signIn: '/sign-in', error: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const clientIp = String(req?.headers?.['x-mailstead-client-ip'] ?? 'unknown');
        const requestId = req?.headers?.['x-request-id'];
        const result = await dashboardAuth().verifyCredentials(
          credentials.email,
          credentials.password,
          clientIp,
          typeof requestId === 'string' ? requestId : undefined,
        );
        if (!result.ok) {
          if (result.reason === 'rate_limited') throw new Error('TooManyAttempts');
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
      if (user) return { ...token, userId: user.id, sessionVersion: user.sessionVersion ?? 0 };
      if (typeof token.userId !== 'string' || typeof token.sessionVersion !== 'number') return {};
      try {
        return (await dashboardAuth().isSessionValid(token.userId, token.sessionVersion)) ? token : {};
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
      if (typeof token?.userId === 'string') await dashboardAuth().revokeSessions(token.userId);
    },
  },
};
