import type { Redis } from 'ioredis';

/**
 * A token bucket: `capacity` tokens, refilled continuously at `refillPerSecond`. A request takes one
 * token; with none left it is refused until one is due. `toleranceMs` admits a request whose token
 * is due within that time (GCRA's delay-variation tolerance), so the bucket may dip below zero by
 * that much refill.
 */
export type BucketLimits = { capacity: number; refillPerSecond: number; toleranceMs?: number };

export type TakeResult = { isAllowed: true } | { isAllowed: false; retryAfterMs: number };

/**
 * `cost`: tokens to take (default 1); negative gives tokens back, up to the capacity. `ageMs`: how
 * long ago the request arrived, so that it is counted at its arrival and not after the work done
 * before the check (authentication can queue behind other requests for tens of milliseconds).
 */
export type TakeOptions = { cost?: number; ageMs?: number };

export type TokenBucketStore = {
  /** Takes tokens from every bucket in `keys`, or from none when one of them lacks them (atomically). */
  take(keys: string[], limits: BucketLimits, options?: TakeOptions): Promise<TakeResult>;
};

/** `at`: the latest arrival counted; a request checked after a later one is counted at that later time. */
type Level = { tokens: number; at: number; fullAt: number };

const SWEEP_INTERVAL_MS = 60_000;

/** Buckets of this process only, in a Map; a bucket that has refilled completely is dropped. */
export function createMemoryTokenBucketStore(now: () => number = () => performance.now()): TokenBucketStore {
  const levels = new Map<string, Level>();
  let lastSweep = now();

  const sweep = (time: number) => {
    if (time - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = time;
    for (const [key, level] of levels) if (level.fullAt <= time) levels.delete(key);
  };

  return {
    async take(keys, limits, { cost = 1, ageMs = 0 } = {}) {
      const time = now() - ageMs;
      sweep(time);
      const ratePerMs = limits.refillPerSecond / 1000;
      const tolerance = (limits.toleranceMs ?? 0) * ratePerMs;
      const current = keys.map((key) => {
        const level = levels.get(key);
        return level
          ? Math.min(limits.capacity, level.tokens + Math.max(0, time - level.at) * ratePerMs)
          : limits.capacity;
      });
      const waitMs = Math.max(0, ...current.map((tokens) => Math.ceil((cost - tolerance - tokens) / ratePerMs)));
      if (waitMs > 0) return { isAllowed: false, retryAfterMs: waitMs };
      keys.forEach((key, i) => {
        const tokens = Math.min(limits.capacity, current[i] - cost);
        const at = Math.max(time, levels.get(key)?.at ?? time);
        levels.set(key, { tokens, at, fullAt: at + (limits.capacity - tokens) / ratePerMs });
      });
      return { isAllowed: true };
    },
  };
}

/*
 * The same algorithm as one Lua script, so that every process sharing the Redis server shares the
 * buckets and a check-and-take is atomic. Time is the Redis server's (TIME), so processes whose
 * clocks disagree still agree on the buckets (the request's age is relative). Returns 0 when the
 * tokens were taken, else the milliseconds until they would be.
 * ARGV: capacity, refill per ms, cost, tolerance in tokens, ttl ms, age ms.
 */
const TAKE_SCRIPT = `
local capacity, rate, cost, tolerance, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) - tonumber(ARGV[6])
local levels, ats, wait = {}, {}, 0
for i, key in ipairs(KEYS) do
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = capacity, now
  if state[1] then
    at = math.max(now, tonumber(state[2]))
    tokens = math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * rate)
  end
  levels[i], ats[i] = tokens, at
  local missing = cost - tolerance - tokens
  if missing > 0 then wait = math.max(wait, math.ceil(missing / rate)) end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'tokens', tostring(math.min(capacity, levels[i] - cost)), 'at', tostring(ats[i]))
  redis.call('PEXPIRE', key, ttl)
end
return 0
`;

type RedisWithTake = Redis & {
  mailsteadTakeTokens(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<number>;
};

/** Buckets in Redis, shared by every process. A bucket expires once it would have refilled. */
export function createRedisTokenBucketStore(redis: Redis): TokenBucketStore {
  // ioredis sends the script once and then calls it by its SHA (EVALSHA), reloading it when needed.
  redis.defineCommand('mailsteadTakeTokens', { lua: TAKE_SCRIPT });
  const client = redis as RedisWithTake;
  return {
    async take(keys, limits, { cost = 1, ageMs = 0 } = {}) {
      const ratePerMs = limits.refillPerSecond / 1000;
      const tolerance = (limits.toleranceMs ?? 0) * ratePerMs;
      const ttlMs = Math.ceil((limits.capacity + tolerance) / ratePerMs) + 1000;
      const waitMs = await client.mailsteadTakeTokens(
        keys.length,
        ...keys,
        limits.capacity,
        ratePerMs,
        cost,
        tolerance,
        ttlMs,
        Math.round(ageMs),
      );
      return waitMs > 0 ? { isAllowed: false, retryAfterMs: waitMs } : { isAllowed: true };
    },
  };
}
