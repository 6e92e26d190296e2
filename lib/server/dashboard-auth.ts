import { createSignInLimiter } from '@/lib/api/rate-limiter';
import { hasAnyAccount } from '@/lib/core/setup/setup-token';
import { authenticateSession, findFirstAccountId, type SessionClaims } from '@/lib/core/users/authenticate-session';
import { endUserSession } from '@/lib/core/user-sessions/end-user-session';
import { startUserSession } from '@/lib/core/user-sessions/start-user-session';
import { verifySecondFactor } from '@/lib/core/two-factor/verify-second-factor';
import { findSessionAccess } from '@/lib/core/users/find-session-access';
import { recordSignIn, recordWrongPassword } from '@/lib/core/users/record-sign-in';
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
  | { ok: false; reason: 'invalid' | 'rate_limited' | 'code_required' | 'code_invalid' | 'code_rate_limited' };

export type { SingleSignOnRefusal };

export type SingleSignOnOutcome =
  | { ok: true; user: { id: string; email: string; name: string | null; sessionVersion: number } }
  | { ok: false; reason: SingleSignOnRefusal };

/**
 * What next-auth (running inside Next.js, in this process) needs from the server: it is handed
 * these functions through globalThis instead of bundling the database code into the dashboard.
 */
export type DashboardAuth = {
  /** `code`: the second factor (a TOTP code or a recovery code), for a person who has turned it on. */
  verifyCredentials(
    email: string,
    password: string,
    code: string | undefined,
    clientIp: string,
    requestId?: string,
  ): Promise<SignInResult>;
  /** A new sign-in (any provider): the id of its session row, which the cookie carries as `sid`. */
  startSession(userId: string, client: { ip: string | null; userAgent: string | null }): Promise<string>;
  isSessionValid(claims: SessionClaims): Promise<boolean>;
  /** Sign-out: this session only. */
  endSession(userId: string, sessionId: string | null): Promise<void>;
  /** Whether a reset link can be mailed (SYSTEM_SENDER), or only made by an operator. */
  isPasswordResetMailed(): boolean;
  needsSetup(): Promise<boolean>;
  /**
   * The person's role in the account, their own or their partner's, and whether the account waits for
   * them to set up two-factor sign-in (findSessionAccess); null when they may not open it.
   */
  accountAccess(userId: string, accountId: string): Promise<{ role: string; isTwoFactorMissing: boolean } | null>;
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
// Wrong second-factor codes: five per person and per address per 15 minutes, so that guessing one of
// a million codes (three valid at a time) takes years; once limited, even the right code is refused.
const CODE_ATTEMPTS = 5;

/** The failed-sign-in limiter of the process: `kind` keeps SMTP AUTH's counters apart from the dashboard's. */
export function createAccountSignInLimiter(registry: Pick<Registry, 'redis' | 'secrets' | 'logger'>, kind?: string) {
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
  const codeLimiter = createSignInLimiter({
    redis: registry.redis,
    namespace: registry.secrets.fingerprint().slice(0, 12),
    logger: registry.logger,
    attempts: CODE_ATTEMPTS,
    windowSeconds: SIGN_IN_WINDOW_SECONDS,
    kind: 'two-factor',
  });
  const auth: DashboardAuth = {
    async verifyCredentials(email, password, code, clientIp, requestId) {
      const logger = requestId ? registry.logger.child({ reqId: requestId }) : registry.logger;
      const attempt = await limiter.attempt(clientIp, email, () => verifyUserCredentials(registry.db, email, password));
      if (attempt.isRateLimited) {
        logger.info({ clientIp }, 'dashboard sign-in refused: too many failed attempts');
        return { ok: false, reason: 'rate_limited' };
      }
      const user = attempt.result;
      if (!user) {
        logger.info({ clientIp }, 'failed dashboard sign-in');
        // A wrong password for a known address shows in its accounts' logs (the answer stays the same).
        await recordWrongPassword(registry.db, email, { clientIp, requestId });
        return { ok: false, reason: 'invalid' };
      }
      const request = { clientIp, requestId };
      if (user.twoFactorEnabledAt) {
        // The password was right: asking for the code is no failed sign-in.
        if (!code) return { ok: false, reason: 'code_required' };
        const second = await codeLimiter.attempt(clientIp, user.id, () =>
          verifySecondFactor(registry.db, registry.secrets, user, code, new Date()),
        );
        if (second.isRateLimited) {
          logger.info({ clientIp }, 'dashboard sign-in refused: too many wrong two-factor codes');
          await recordSignIn(registry.db, user, 'user.sign_in_failed', request);
          return { ok: false, reason: 'code_rate_limited' };
        }
        if (!second.result) {
          logger.info({ clientIp }, 'failed dashboard sign-in: wrong two-factor code');
          await recordSignIn(registry.db, user, 'user.sign_in_failed', request);
          return { ok: false, reason: 'code_invalid' };
        }
      }
      await recordSignIn(registry.db, user, 'user.sign_in', request);
      return {
        ok: true,
        user: { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion },
      };
    },
    startSession: (userId, client) => startUserSession(registry.db, { userId, ...client, now: registry.now() }),
    async isSessionValid(claims) {
      return (await authenticateSession(registry.db, claims, registry.now())) !== null;
    },
    endSession: (userId, sessionId) => endUserSession(registry.db, userId, sessionId, registry.now()),
    isPasswordResetMailed: () => registry.config.systemSender !== null,
    needsSetup: async () => !(await hasAnyAccount(registry.db)),
    async accountAccess(userId, accountId) {
      const access = await findSessionAccess(registry.db, userId, accountId);
      return access ? { role: access.role, isTwoFactorMissing: access.isTwoFactorMissing } : null;
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
