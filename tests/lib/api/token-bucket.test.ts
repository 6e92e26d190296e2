import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryTokenBucketStore, createRedisTokenBucketStore, type BucketLimits } from '@/lib/api/token-bucket';

const GENERAL: BucketLimits = { capacity: 200, refillPerSecond: 100 };

async function takeMany(take: () => Promise<{ isAllowed: boolean }>, count: number) {
  let allowed = 0;
  for (let i = 0; i < count; i++) if ((await take()).isAllowed) allowed++;
  return allowed;
}

describe('memory token bucket', () => {
  const clock = () => {
    let time = 1_000_000;
    return { now: () => time, advance: (ms: number) => (time += ms) };
  };

  it('a full bucket gives the burst, then refuses with the time until the next token', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    expect(await takeMany(() => store.take(['a'], GENERAL), 250)).toBe(200);
    expect(await store.take(['a'], GENERAL)).toEqual({ isAllowed: false, retryAfterMs: 10 });
    time.advance(4);
    expect(await store.take(['a'], GENERAL)).toEqual({ isAllowed: false, retryAfterMs: 6 });
  });

  it('refills continuously at the rate, up to the capacity', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    await takeMany(() => store.take(['a'], GENERAL), 200);
    time.advance(500);
    expect(await takeMany(() => store.take(['a'], GENERAL), 100)).toBe(50);
    time.advance(60_000);
    expect(await takeMany(() => store.take(['a'], GENERAL), 300)).toBe(200);
  });

  it('a client pacing at the rate after its burst is never refused; 20% faster is', async () => {
    for (const [rate, shouldBeRefused] of [
      [100, false],
      [120, true],
    ] as const) {
      const time = clock();
      const store = createMemoryTokenBucketStore(time.now);
      let refused = 0;
      for (let i = 0; i < 200; i++) if (!(await store.take(['a'], GENERAL)).isAllowed) refused++;
      for (let i = 0; i < 1000; i++) {
        time.advance(1000 / rate);
        if (!(await store.take(['a'], GENERAL)).isAllowed) refused++;
      }
      expect(refused > 0).toBe(shouldBeRefused);
    }
  });

  it('admits a request whose token is due within the tolerance, and counts it', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    const limits = { ...GENERAL, toleranceMs: 50 };
    await takeMany(() => store.take(['a'], limits), 200);
    // Five tokens of tolerance at 100/s, then the debt must be repaid.
    expect(await takeMany(() => store.take(['a'], limits), 10)).toBe(5);
    expect(await store.take(['a'], limits)).toEqual({ isAllowed: false, retryAfterMs: 10 });
    time.advance(50);
    expect(await store.take(['a'], limits)).toEqual({ isAllowed: true });
  });

  it('statistics: capacity 1, one per second', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    const limits = { capacity: 1, refillPerSecond: 1, toleranceMs: 50 };
    expect(await store.take(['s'], limits)).toEqual({ isAllowed: true });
    expect(await store.take(['s'], limits)).toEqual({ isAllowed: false, retryAfterMs: 950 });
    time.advance(960);
    expect(await store.take(['s'], limits)).toEqual({ isAllowed: true });
  });

  it('takes from several buckets all or nothing, and gives back with a negative cost', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    const limits = { capacity: 2, refillPerSecond: 0.001 };
    expect(await takeMany(() => store.take(['ip', 'email-1'], limits), 2)).toBe(2);
    expect((await store.take(['ip', 'email-2'], limits)).isAllowed).toBe(false);
    expect((await store.take(['email-2'], limits)).isAllowed).toBe(true); // untouched by the refusal
    await store.take(['ip', 'email-1'], limits, { cost: -1 });
    expect((await store.take(['ip', 'email-3'], limits)).isAllowed).toBe(true);
    expect((await store.take(['ip'], limits)).isAllowed).toBe(false);
  });

  it('counts a request at its arrival (ageMs), and one checked after a later arrival at that later time', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    await takeMany(() => store.take(['a'], GENERAL), 200);
    time.advance(100);
    // Arrived 100 ms ago, right after the burst: no token had come back yet.
    expect(await store.take(['a'], GENERAL, { ageMs: 100 })).toEqual({ isAllowed: false, retryAfterMs: 10 });
    expect(await takeMany(() => store.take(['a'], GENERAL), 10)).toBe(10);
    // Older than the last request counted: no refill is counted twice.
    expect(await store.take(['a'], GENERAL, { ageMs: 50 })).toEqual({ isAllowed: false, retryAfterMs: 10 });
  });

  it('forgets buckets that have refilled', async () => {
    const time = clock();
    const store = createMemoryTokenBucketStore(time.now);
    for (let i = 0; i < 1000; i++) await store.take([`account-${i}`], GENERAL);
    time.advance(120_000);
    await store.take(['other'], GENERAL);
    // A forgotten bucket starts full again: the same as one that had refilled.
    expect(await takeMany(() => store.take(['account-1'], GENERAL), 201)).toBe(200);
  });
});

const redisUrl = process.env.MAILSTEAD_TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Redis token bucket', () => {
  const redis = new Redis(redisUrl ?? '', { lazyConnect: true });
  const prefix = `mailstead-test:${process.pid}:${Date.now()}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('a full bucket gives the burst to concurrent callers, then refuses with the time until the next token', async () => {
    const store = createRedisTokenBucketStore(redis);
    const results = await Promise.all(
      Array.from({ length: 250 }, () => store.take([`${prefix}a`], { capacity: 200, refillPerSecond: 0.01 })),
    );
    expect(results.filter((result) => result.isAllowed)).toHaveLength(200);
    const refused = results.find((result) => !result.isAllowed);
    expect(refused).toMatchObject({ isAllowed: false });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(100_000);
  });

  it('refills with the time of the Redis server, and the bucket expires once full', async () => {
    const store = createRedisTokenBucketStore(redis);
    const limits = { capacity: 5, refillPerSecond: 20 };
    expect(await takeMany(() => store.take([`${prefix}b`], limits), 10)).toBeGreaterThanOrEqual(5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await takeMany(() => store.take([`${prefix}b`], limits), 5)).toBe(5);
    const ttl = await redis.pttl(`${prefix}b`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual((5 / 20) * 1000 + 1000);
  });

  it('counts a request at its arrival (ageMs)', async () => {
    const store = createRedisTokenBucketStore(redis);
    const limits = { capacity: 1, refillPerSecond: 1 };
    expect(await store.take([`${prefix}age`], limits)).toEqual({ isAllowed: true });
    const firstTaken = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Arrived when the first one was taken: counted then, no token had come back.
    expect((await store.take([`${prefix}age`], limits, { ageMs: performance.now() - firstTaken })).isAllowed).toBe(
      false,
    );
    expect(await store.take([`${prefix}age`], limits)).toEqual({ isAllowed: true });
  });

  it('takes from several buckets all or nothing, and gives back with a negative cost', async () => {
    const store = createRedisTokenBucketStore(redis);
    const limits = { capacity: 2, refillPerSecond: 0.001 };
    const [ip, email1, email2, email3] = ['ip', 'e1', 'e2', 'e3'].map((name) => `${prefix}${name}`);
    expect(await takeMany(() => store.take([ip, email1], limits), 2)).toBe(2);
    expect((await store.take([ip, email2], limits)).isAllowed).toBe(false);
    expect((await store.take([email2], limits)).isAllowed).toBe(true);
    await store.take([ip, email1], limits, { cost: -1 });
    expect((await store.take([ip, email3], limits)).isAllowed).toBe(true);
    expect((await store.take([ip], limits)).isAllowed).toBe(false);
  });
});
