import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  createMemoryTokenBucketStore,
  createRedisTokenBucketStore,
  type BucketLimits,
  type TakeOptions,
  type TakeResult,
  type TokenBucketStore,
} from './token-bucket';

/**
 * Buckets: API keys share `general` per account; statistics have their own; dashboard sessions too;
 * `smtp` is per SMTP credential; `media` is per client address (public media has no account to count).
 */
export type RateBucket = 'general' | 'statistics' | 'session' | 'smtp' | 'media';

export type RateLimitDecision = { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  /** `receivedAt`: when the request reached the server (performance.now()), so that it is counted then. */
  consume(bucket: RateBucket, accountId: string, receivedAt?: number): Promise<RateLimitDecision>;
  /** True when counters live in this process only (no Redis). */
  isLocal: boolean;
};

type Limits = { perSecond: number; burst: number };

// A mail client opens a message's few images at once; a mailbox provider's image proxy fetches for
// many readers from one address, but caches what it fetched (our files are immutable).
const MEDIA_LIMITS: Limits = { perSecond: 50, burst: 300 };

/*
 * A client pacing itself exactly at the published rate (the AhaSend SDK's token bucket) reaches us
 * with jitter: measured 1-7 ms, plus up to ~50 ms more on its first request (connections being set
 * up, a burst being written), from which our full bucket starts refilling. Admit a request whose
 * token is due within this time (100 ms: 10 tokens at 100/s, 0.1 for statistics).
 */
const JITTER_TOLERANCE_MS = 100;
// A request is counted at its arrival, at most this long before its check.
const MAX_AGE_MS = 10_000;

// A Redis that does not answer in this time counts as down: the request is let through.
const STORE_TIMEOUT_MS = 1000;
const OUTAGE_WARNING_INTERVAL_MS = 60_000;

type Options = { redis: Redis | null; namespace: string; logger: Logger };

/**
 * Token buckets per account: capacity `burst`, refilled at `perSecond` (the published figures are
 * 100/s with a burst of 200; statistics 1/s, burst 1). In memory, or in Redis shared by every process.
 * Keys are namespaced per installation (derived from its master key), so that installations sharing
 * one Redis never count each other's requests.
 */
export function createRateLimiter(
  options: Options & { general: Limits; statistics: Limits; session: Limits; smtp?: Limits; media?: Limits },
): RateLimiter {
  const take = guardedStore(options);
  const limits: Record<RateBucket, BucketLimits> = {
    general: bucketLimits(options.general),
    statistics: bucketLimits(options.statistics),
    session: bucketLimits(options.session),
    smtp: bucketLimits(options.smtp ?? options.general),
    media: bucketLimits(options.media ?? MEDIA_LIMITS),
  };
  return {
    isLocal: !options.redis,
    async consume(bucket, accountId, receivedAt) {
      const ageMs = receivedAt === undefined ? 0 : Math.min(MAX_AGE_MS, Math.max(0, performance.now() - receivedAt));
      const result = await take([`${bucket}:${accountId}`], limits[bucket], { ageMs });
      return result.isAllowed
        ? result
        : { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil(result.retryAfterMs / 1000)) };
    },
  };
}

const bucketLimits = (limits: Limits): BucketLimits => ({
  capacity: limits.burst,
  refillPerSecond: limits.perSecond,
  toleranceMs: JITTER_TOLERANCE_MS,
});

export type SignInLimiter = {
  /**
   * Runs `check` (the password check) only when both the client address and the email have an
   * attempt left, taking one from each first, so parallel tries cannot overshoot. A successful
   * check gives both back: only failures count.
   */
  attempt<T>(
    clientIp: string,
    email: string,
    check: () => Promise<T | null>,
  ): Promise<{ isRateLimited: true } | { isRateLimited: false; result: T | null }>;
};

/**
 * `attempts` failed sign-ins per address and per email, refilled evenly over `windowSeconds`.
 * `kind` keeps the counters of different doors apart (dashboard sign-in, SMTP AUTH).
 */
export function createSignInLimiter(
  options: Options & { attempts: number; windowSeconds: number; kind?: string },
): SignInLimiter {
  const take = guardedStore(options);
  const limits: BucketLimits = {
    capacity: options.attempts,
    refillPerSecond: options.attempts / options.windowSeconds,
  };
  const kind = options.kind ?? 'signin';
  return {
    async attempt(clientIp, email, check) {
      // Emails are hashed so that Redis holds no addresses.
      const emailKey = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
      const keys = [`${kind}:ip:${clientIp}`, `${kind}:email:${emailKey}`];
      if (!(await take(keys, limits)).isAllowed) return { isRateLimited: true };
      let result: Awaited<ReturnType<typeof check>>;
      try {
        result = await check();
      } catch (error) {
        // A check that could not run (the database away) is no failed password.
        await take(keys, limits, { cost: -1 });
        throw error;
      }
      if (result !== null) await take(keys, limits, { cost: -1 });
      return { isRateLimited: false, result };
    },
  };
}

/** `attempts` requests per key, refilled evenly over `windowSeconds`; every request counts. */
export function createKeyLimiter(options: Options & { attempts: number; windowSeconds: number; kind: string }): {
  take(key: string): Promise<boolean>;
} {
  const take = guardedStore(options);
  const limits: BucketLimits = {
    capacity: options.attempts,
    refillPerSecond: options.attempts / options.windowSeconds,
  };
  return { take: async (key) => (await take([`${options.kind}:${key}`], limits)).isAllowed };
}

/** The store for these options; a Redis that fails or hangs lets requests through, with a warning now and then. */
function guardedStore(
  options: Options,
): (keys: string[], limits: BucketLimits, take?: TakeOptions) => Promise<TakeResult> {
  if (!options.redis) {
    const memory = createMemoryTokenBucketStore();
    return (keys, limits, take) => memory.take(keys, limits, take);
  }
  const store: TokenBucketStore = createRedisTokenBucketStore(options.redis);
  const prefix = `mailstead:${options.namespace}:tb:`;
  let lastWarning = -Infinity;
  return async (keys, limits, take) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${STORE_TIMEOUT_MS} ms`)), STORE_TIMEOUT_MS);
      });
      return await Promise.race([
        store.take(
          keys.map((key) => prefix + key),
          limits,
          take,
        ),
        timeout,
      ]);
    } catch (error) {
      if (performance.now() - lastWarning >= OUTAGE_WARNING_INTERVAL_MS) {
        lastWarning = performance.now();
        options.logger.warn({ err: error }, 'rate limits not enforced: Redis is unavailable, requests are let through');
      }
      return { isAllowed: true };
    } finally {
      clearTimeout(timer);
    }
  };
}
