import type { Context, MiddlewareHandler } from 'hono';
import type { Principal } from '@/lib/auth/principal';
import { authenticateApiKey } from '@/lib/core/api-keys/authenticate-api-key';
import { AppError } from '@/lib/shared/errors';
import { authenticateSession } from '@/lib/core/users/authenticate-session';
import { findSessionAccess } from '@/lib/core/users/find-session-access';
import { isUuid } from '@/lib/shared/ids';
import { anyCidrContains, parseCidrList } from '@/lib/shared/ip';
import { unauthenticated } from '../errors';
import { getRequestMeta } from '../request-meta';
import type { ApiDeps, ApiEnv } from '../services';
import { hasSessionCookie, isSameOriginRequest, readSessionClaims } from '../session';

const ACCOUNT_IN_PATH = /^\/(?:v2|internal)\/accounts\/([^/]*)/;
// The invitation link's token is the credential of the invitation paths, the reset link's of the reset ones.
const PASSWORD_RESET_PATHS = [
  '/internal/password-resets',
  '/internal/password-resets/inspect',
  '/internal/password-resets/complete',
];
const PUBLIC_PATHS = new Set([
  '/v2/openapi.json',
  '/internal/setup',
  '/internal/invitations/inspect',
  '/internal/invitations/accept',
  ...PASSWORD_RESET_PATHS,
]);

function pathAccountId(c: Context): string | undefined {
  const raw = ACCOUNT_IN_PATH.exec(c.req.path)?.[1];
  if (raw === undefined) return undefined;
  if (!isUuid(raw)) throw new AppError('invalid_input', 'invalid account_id');
  return raw.toLowerCase();
}

/**
 * The chokepoint's first steps: who is calling (401) and from where (403, IP allow list). A bearer
 * API key wins; without one, the dashboard's session cookie is accepted, acting with the scopes of
 * the person's role there (findSessionAccess decides, a partner's sub accounts included). Both
 * happen before idempotency, so their failures are never stored.
 */
export function authenticate(deps: ApiDeps, options: { allowApiKeys: boolean }): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (PUBLIC_PATHS.has(c.req.path)) {
      // No cookie to forge, but a hostile page must not ask for resets (mail bombing) or spend links.
      if (PASSWORD_RESET_PATHS.includes(c.req.path) && !isSameOriginRequest(c, deps.session))
        throw new AppError('forbidden', 'cross-origin request refused');
      return next();
    }
    const header = c.req.header('authorization');
    const { clientIp } = getRequestMeta(c);
    let principal: Principal;
    if (header !== undefined || !hasSessionCookie(c, deps.session)) {
      if (!options.allowApiKeys) throw unauthenticated('sign in to the dashboard first');
      principal = await apiKeyPrincipal(c, deps, header, clientIp);
    } else {
      principal = await sessionPrincipal(c, deps, clientIp);
    }
    c.set('principal', principal);
    return next();
  };
}

async function apiKeyPrincipal(
  c: Context,
  deps: ApiDeps,
  header: string | undefined,
  clientIp: string | null,
): Promise<Principal> {
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  if (!match) throw unauthenticated('missing or malformed bearer token');
  const key = await authenticateApiKey(deps.db, match[1], deps.now());
  if (!key) throw unauthenticated('invalid API key');
  if (key.accountStatus === 'suspended' || key.accountStatus === 'parent-suspended')
    throw unauthenticated('Account is suspended');
  if (key.accountStatus === 'deleted') throw unauthenticated('Account is deleted');
  const accountId = pathAccountId(c);
  if (accountId !== undefined && accountId !== key.accountId)
    throw unauthenticated('this API key does not belong to the account in the path');
  if (key.ipAllowList.length > 0 && !anyCidrContains(parseCidrList(key.ipAllowList), clientIp)) {
    throw new AppError('forbidden', `client IP ${clientIp ?? 'unknown'} is not in this API key's ip_allow_list`);
  }
  return {
    kind: 'api_key',
    accountId: key.accountId,
    targetAccountId: key.accountId,
    scopes: key.scopes,
    apiKeyId: key.keyId,
    label: key.label,
    clientIp,
    isSandbox: key.isSandbox,
  };
}

async function sessionPrincipal(c: Context, deps: ApiDeps, clientIp: string | null): Promise<Principal> {
  const claims = await readSessionClaims(c, deps.session);
  const user = claims ? await authenticateSession(deps.db, claims, deps.now()) : null;
  if (!user) throw unauthenticated('your session has ended: sign in again');
  if (!isSameOriginRequest(c, deps.session)) throw new AppError('forbidden', 'cross-origin request refused');
  const accountId = pathAccountId(c);
  if (accountId === undefined) {
    return {
      kind: 'session',
      accountId: '',
      targetAccountId: '',
      scopes: [],
      userId: user.id,
      sessionId: claims?.sessionId ?? undefined,
      label: user.email,
      clientIp,
      isSandbox: false,
    };
  }
  const access = await findSessionAccess(deps.db, user.id, accountId);
  if (!access) throw unauthenticated('you are not a member of this account');
  if (access.isSuspended) throw unauthenticated('Account is suspended');
  // API keys are unaffected: the rule is about how people sign in.
  if (access.isTwoFactorMissing)
    throw new AppError(
      'forbidden',
      'this account requires two-factor sign-in: set it up (/two-factor-setup) before using the account',
    );
  return {
    kind: 'session',
    accountId,
    targetAccountId: accountId,
    scopes: access.scopes,
    userId: user.id,
    sessionId: claims?.sessionId ?? undefined,
    label: user.email,
    role: access.role,
    clientIp,
    isSandbox: false,
  };
}
