import { createSignInLimiter } from '@/lib/api/rate-limiter';
import { hasAnyAccount } from '@/lib/core/setup/setup-token';
import { authenticateSession, findFirstAccountId } from '@/lib/core/users/authenticate-session';
import { findSessionAccess } from '@/lib/core/users/find-session-access';
import { revokeUserSessions } from '@/lib/core/users/revoke-user-sessions';
import {
  signInWithSingleSignOn,
  type SingleSignOnClaims,
  type SingleSignOnRefusal,
} from '@/lib/core/users/sign-in-with-single-sign-on';
import { verifyUserCredentials } from '@/lib/core/users/verify-user-credentials';
import type { SingleSignOnSettings } from './config-settings';
import type { Registry } from './registry';

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string | null; sessionVersion: number } }
  | { ok: false; reason: 'invalid' | 'rate_limited' };

export type { SingleSignOnRefusal };

export type SingleSignOnOutcome =
  | { ok: true; user: { id: string; email: string; name: string | null; sessionVersion: number } }
  | { ok: false; reason: SingleSignOnRefusal };

/**
 * What next-auth (running inside Next.js, in this process) needs from the server: it is handed
 * these functions through globalThis instead of bundling the database code into the dashboard.
 */
export type DashboardAuth = {
  verifyCredentials(email: string, password: string, clientIp: string, requestId?: string): Promise<SignInResult>;
  isSessionValid(userId: string, sessionVersion: number): Promise<boolean>;
  revokeSessions(userId: string): Promise<void>;
  needsSetup(): Promise<boolean>;
  /** The person's role in the account, their own or their partner's (findSessionAccess); null when they may not open it. */
  membershipRole(userId: string, accountId: string): Promise<string | null>;
  firstAccountId(userId: string): Promise<string | null>;
  /** OpenID Connect sign-in, when the operator configured it (lib/dashboard/oidc-provider.ts). */
  singleSignOn: SingleSignOnSettings | null;
  /** Who the checked claims of an ID token are (lib/core/users/sign-in-with-single-sign-on.ts). */
  signInWithSingleSignOn(
    claims: SingleSignOnClaims,
    clientIp: string,
    requestId?: string,
  ): Promise<SingleSignOnOutcome>;
};

const DASHBOARD_AUTH_KEY = Symbol.for('mailstead.dashboardAuth');

// Ten failed sign-ins per address and per email, refilled over 15 minutes (one every 90 seconds).
// SMTP AUTH uses the same figures per address and per username.
const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** The failed-sign-in limiter of the process: `kind` keeps SMTP AUTH's counters apart from the dashboard's. */
export function createAccountSignInLimiter(registry: Registry, kind?: string) {
  return createSignInLimiter({
    redis: registry.redis,
    namespace: registry.secrets.fingerprint().slice(0, 12),
    logger: registry.logger,
    attempts: SIGN_IN_ATTEMPTS,
    windowSeconds: SIGN_IN_WINDOW_SECONDS,
    ...(kind ? { kind } : {}),
  });
}

export function publishDashboardAuth(registry: Registry): DashboardAuth {
  const limiter = createAccountSignInLimiter(registry);
  const auth: DashboardAuth = {
    async verifyCredentials(email, password, clientIp, requestId) {
      const logger = requestId ? registry.logger.child({ reqId: requestId }) : registry.logger;
      const attempt = await limiter.attempt(clientIp, email, () => verifyUserCredentials(registry.db, email, password));
      if (attempt.isRateLimited) {
        logger.info({ clientIp }, 'dashboard sign-in refused: too many failed attempts');
        return { ok: false, reason: 'rate_limited' };
      }
      const user = attempt.result;
      if (!user) {
        logger.info({ clientIp }, 'failed dashboard sign-in');
        return { ok: false, reason: 'invalid' };
      }
      return {
        ok: true,
        user: { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion },
      };
    },
    async isSessionValid(userId, sessionVersion) {
      return (await authenticateSession(registry.db, userId, sessionVersion)) !== null;
    },
    revokeSessions: (userId) => revokeUserSessions(registry.db, userId),
    needsSetup: async () => !(await hasAnyAccount(registry.db)),
    async membershipRole(userId, accountId) {
      return (await findSessionAccess(registry.db, userId, accountId))?.role ?? null;
    },
    firstAccountId: (userId) => findFirstAccountId(registry.db, userId),
    singleSignOn: registry.config.singleSignOn,
    async signInWithSingleSignOn(claims, clientIp, requestId) {
      const result = await signInWithSingleSignOn(registry.db, claims, { clientIp, requestId, now: registry.now() });
      if (!result.ok) {
        const logger = requestId ? registry.logger.child({ reqId: requestId }) : registry.logger;
        logger.info({ clientIp, reason: result.reason }, 'single sign-on refused');
        return result;
      }
      const { id, email, name, sessionVersion } = result.user;
      return { ok: true, user: { id, email, name, sessionVersion } };
    },
  };
  (globalThis as Record<symbol, unknown>)[DASHBOARD_AUTH_KEY] = auth;
  return auth;
}
