import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

/** Buckets: API keys share `general` per account; statistics have their own; dashboard sessions too. */
export type RateBucket = 'general' | 'statistics' | 'session';

export type RateLimitDecision = { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  consume(bucket: RateBucket, accountId: string): Promise<RateLimitDecision>;
  /** True when counters live in this process only (no Redis). */
  isLocal: boolean;
};

type Limits = { perSecond: number; burst: number };

/**
 * Counters are namespaced per installation (derived from its master key), so that installations
 * sharing one Redis never count each other's requests.
 *
 * Token-bucket-like limits from rate-limiter-flexible: `perSecond` per one-second window, plus a burst
 * pool of (burst - perSecond) that refills over ten seconds. With Redis every process shares counters.
 */
export function createRateLimiter(options: { redis: Redis | null; namespace: string; general: Limits; statistics: Limits; session: Limits }): RateLimiter {
  const make = (prefix: string, points: number, duration: number): RateLimiterAbstract =>
    options.redis
      ? new RateLimiterRedis({ storeClient: options.redis, keyPrefix: `mailstead:${options.namespace}:rl:${prefix}`, points, duration })
      : new RateLimiterMemory({ keyPrefix: prefix, points, duration });
  const build = (name: RateBucket, limits: Limits) => {
    const main = make(name, limits.perSecond, 1);
    const extra = limits.burst - limits.perSecond;
    return extra > 0 ? new BurstyRateLimiter(main, make(`${name}-burst`, extra, 10)) : main;
  };
  const limiters: Record<RateBucket, RateLimiterAbstract | BurstyRateLimiter> = {
    general: build('general', options.general),
    statistics: build('statistics', options.statistics),
    session: build('session', options.session),
  };
  return {
    isLocal: !options.redis,
    async consume(bucket, accountId) {
      try {
        await limiters[bucket].consume(accountId);
        return { isAllowed: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        // A limiter store that is down must not take the API with it.
        return { isAllowed: true };
      }
    },
  };
}

/**
 * Failed dashboard sign-ins per client IP: after `attempts` failures within `windowSeconds`, refuse.
 * A success does not clear the count, so a valid login cannot be used to keep guessing another one.
 */
export function createSignInLimiter(options: { redis: Redis | null; namespace: string; attempts: number; windowSeconds: number }) {
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({ storeClient: options.redis, keyPrefix: `mailstead:${options.namespace}:rl:signin`, points: options.attempts, duration: options.windowSeconds })
    : new RateLimiterMemory({ keyPrefix: 'signin', points: options.attempts, duration: options.windowSeconds });
  return {
    async isBlocked(ip: string): Promise<boolean> {
      const state = await limiter.get(ip).catch(() => null);
      return state !== null && state.consumedPoints >= options.attempts;
    },
    async recordFailure(ip: string): Promise<void> {
      await limiter.penalty(ip, 1).catch(() => {});
    },
  };
}
