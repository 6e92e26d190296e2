import 'server-only';
import type { Profile, User } from 'next-auth';
import { headers } from 'next/headers';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import type { SingleSignOnRefusal } from '@/lib/server/dashboard-auth';
import { dashboardAuth, publishedDashboardAuth } from './server-auth';

/** next-auth's id for the provider: the redirect URI operators register is `/api/auth/callback/oidc`. */
export const SINGLE_SIGN_ON_PROVIDER_ID = 'oidc';

/** What the sign-in page is sent (`?error=`) when the provider vouched for someone Mailstead refuses. */
export const SINGLE_SIGN_ON_REFUSALS: Record<SingleSignOnRefusal, string> = {
  no_email: 'SingleSignOnNoEmail',
  unverified_email: 'SingleSignOnUnverifiedEmail',
  unknown_email: 'SingleSignOnUnknownEmail',
};

type IdTokenClaims = { sub: string; email?: unknown; email_verified?: unknown; name?: unknown };

/**
 * The operator's OpenID provider (OIDC_ISSUER), or none. Authorization code flow with PKCE, state and
 * nonce; `idToken` has openid-client check the ID token's signature (the issuer's published keys),
 * issuer, audience (our client id), expiry and nonce before any claim is read.
 */
export function singleSignOnProviders(): OAuthConfig<IdTokenClaims>[] {
  // `next build` evaluates this module outside the server, where nothing is configured.
  const settings = publishedDashboardAuth()?.singleSignOn;
  if (!settings) return [];
  return [
    {
      id: SINGLE_SIGN_ON_PROVIDER_ID,
      name: settings.buttonLabel,
      type: 'oauth',
      wellKnown: `${settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      authorization: { params: { scope: 'openid email profile' } },
      idToken: true,
      checks: ['pkce', 'state', 'nonce'],
      // openid-client gives up after 3.5 s by default: too soon for a provider under load.
      httpOptions: { timeout: 10_000 },
      // The provider's person, not yet a Mailstead user: allowSingleSignOn decides who they are.
      profile: (claims) => ({
        id: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        name: typeof claims.name === 'string' ? claims.name : null,
      }),
    },
  ];
}

/**
 * next-auth's signIn callback for single sign-on: the server matches the claims to a Mailstead user
 * (or refuses, naming why on the sign-in page). next-auth hands this same `user` object to the jwt
 * callback, so it becomes the Mailstead user here, as the credentials provider's authorize returns one.
 */
export async function allowSingleSignOn(user: User, claims: Profile | undefined): Promise<true | string> {
  const requestHeaders = await headers();
  const result = await dashboardAuth().signInWithSingleSignOn(
    claims ?? {},
    requestHeaders.get('x-mailstead-client-ip') ?? 'unknown',
    requestHeaders.get('x-request-id') ?? undefined,
  );
  if (!result.ok) return `/sign-in?error=${SINGLE_SIGN_ON_REFUSALS[result.reason]}`;
  Object.assign(user, result.user);
  return true;
}
