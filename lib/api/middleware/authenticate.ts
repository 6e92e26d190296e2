import type { MiddlewareHandler } from 'hono';
import { authenticateApiKey } from '@/lib/core/api-keys/authenticate-api-key';
import { AppError } from '@/lib/core/errors';
import { isUuid } from '@/lib/shared/ids';
import { anyCidrContains, parseCidrList } from '@/lib/shared/ip';
import { unauthenticated } from '../errors';
import { getRequestMeta } from '../request-meta';
import type { ApiDeps, ApiEnv } from '../services';

const ACCOUNT_IN_PATH = /^\/v2\/accounts\/([^/]*)/;
const PUBLIC_PATHS = new Set(['/v2/openapi.json']);

/**
 * The v2 chokepoint's first two steps: who is calling (401) and from where (403, IP allow list).
 * Both happen before idempotency, so their failures are never stored.
 */
export function authenticateV2(deps: ApiDeps): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (PUBLIC_PATHS.has(c.req.path)) return next();
    const header = c.req.header('authorization');
    const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
    if (!match) throw unauthenticated('missing or malformed bearer token');
    const key = await authenticateApiKey(deps.db, match[1], deps.now());
    if (!key) throw unauthenticated('invalid API key');
    if (key.accountStatus === 'suspended' || key.accountStatus === 'parent-suspended') throw unauthenticated('Account is suspended');
    if (key.accountStatus === 'deleted') throw unauthenticated('invalid API key');

    const pathAccount = ACCOUNT_IN_PATH.exec(c.req.path)?.[1];
    if (pathAccount !== undefined) {
      if (!isUuid(pathAccount)) throw new AppError('invalid_input', 'invalid account_id');
      if (pathAccount.toLowerCase() !== key.accountId) throw unauthenticated('this API key does not belong to the account in the path');
    }

    const { clientIp } = getRequestMeta(c);
    if (key.ipAllowList.length > 0 && !anyCidrContains(parseCidrList(key.ipAllowList), clientIp)) {
      throw new AppError('forbidden', `client IP ${clientIp ?? 'unknown'} is not in this API key's ip_allow_list`);
    }

    c.set('principal', {
      kind: 'api_key',
      accountId: key.accountId,
      targetAccountId: key.accountId,
      scopes: key.scopes,
      apiKeyId: key.keyId,
      clientIp,
      isSandbox: key.isSandbox,
    });
    return next();
  };
}
