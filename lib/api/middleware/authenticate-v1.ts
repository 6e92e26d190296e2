import type { MiddlewareHandler } from 'hono';
import { AppError } from '@/lib/shared/errors';
import { authenticateV1Key } from '@/lib/core/v1-keys/authenticate-v1-key';
import { getRequestMeta } from '../request-meta';
import type { ApiDeps, ApiEnv } from '../services';

/** v1 authenticates with `X-Api-Key`; every failure is 403 `invalid credentials` (the v1 contract). */
export function authenticateV1(deps: ApiDeps): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const key = await authenticateV1Key(deps.db, c.req.header('x-api-key') ?? '', deps.now());
    if (!key || key.accountStatus === 'deleted') throw new AppError('forbidden', 'invalid credentials');
    if (key.accountStatus !== 'active') throw new AppError('forbidden', 'account is suspended');
    c.set('principal', {
      kind: 'v1_key',
      accountId: key.accountId,
      targetAccountId: key.accountId,
      // A v1 key sends from any domain of its account, and does nothing else.
      scopes: ['messages:send:all'],
      apiKeyId: key.keyId,
      clientIp: getRequestMeta(c).clientIp,
      isSandbox: false,
    });
    return next();
  };
}
