import type { MiddlewareHandler } from 'hono';
import { rateLimited } from '../errors';
import { getRequestMeta } from '../request-meta';
import type { ApiDeps, ApiEnv } from '../services';
import type { RateBucket } from '../rate-limiter';

const STATISTICS_PATH = /^\/v2\/accounts\/[^/]+\/statistics\//;

/** Per account, after authentication and before routing: unknown paths count too, as they cost us work. */
export function rateLimit(deps: ApiDeps): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal) return next();
    // The 1/s statistics limit is the API's (keys); the dashboard loads several charts at once on its session's bucket.
    const bucket: RateBucket =
      principal.kind === 'session' ? 'session' : STATISTICS_PATH.test(c.req.path) ? 'statistics' : 'general';
    const decision = await deps.rateLimiter.consume(
      bucket,
      principal.accountId || `user:${principal.userId ?? 'anonymous'}`,
      getRequestMeta(c).receivedAt,
    );
    if (!decision.isAllowed) throw rateLimited(decision.retryAfterSeconds);
    return next();
  };
}
