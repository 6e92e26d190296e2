import type { MiddlewareHandler } from 'hono';
import type { ApiDeps, ApiEnv } from '../services';
import type { RateBucket } from '../rate-limiter';

const STATISTICS_PATH = /^\/v2\/accounts\/[^/]+\/statistics\//;

/** Per account, after authentication and before routing: unknown paths count too, as they cost us work. */
export function rateLimit(deps: ApiDeps): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal) return next();
    const bucket: RateBucket = STATISTICS_PATH.test(c.req.path) ? 'statistics' : principal.kind === 'session' ? 'session' : 'general';
    const decision = await deps.rateLimiter.consume(bucket, principal.accountId || `user:${principal.userId ?? 'anonymous'}`);
    if (!decision.isAllowed) {
      return c.json({ message: 'Too many requests, rate limited.' }, 429, { 'Retry-After': String(decision.retryAfterSeconds) });
    }
    return next();
  };
}
