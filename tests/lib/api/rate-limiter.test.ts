import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createRateLimiter, createSignInLimiter } from '@/lib/api/rate-limiter';

const logger = pino({ level: 'silent' });
const redisUrl = process.env.MAILSTEAD_TEST_REDIS_URL;
const stores = [['memory', null] as const, ...(redisUrl ? [['Redis', new Redis(redisUrl)] as const] : [])];

afterAll(() => {
  for (const [, redis] of stores) redis?.disconnect();
});

let namespaceCounter = 0;
const freshNamespace = () => `test-${process.pid}-${Date.now()}-${namespaceCounter++}`;

/** A password check that takes a while, as scrypt does, and counts how often it ran. */
function slowWrongPassword() {
  const check = {
    runs: 0,
    run: async (): Promise<{ id: string } | null> => {
      check.runs++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return null;
    },
  };
  return check;
}

describe.each(stores)('sign-in limiter (%s)', (_name, redis) => {
  const limiter = () =>
    createSignInLimiter({ redis, namespace: freshNamespace(), logger, attempts: 10, windowSeconds: 900 });

  it('40 parallel wrong passwords for one email: at most 10 are checked', async () => {
    const signIn = limiter();
    const check = slowWrongPassword();
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () => signIn.attempt('198.51.100.7', 'Owner@Example.com', check.run)),
    );
    expect(check.runs).toBe(10);
    expect(outcomes.filter((outcome) => outcome.isRateLimited)).toHaveLength(30);
  });

  it('one email from many addresses is limited', async () => {
    const signIn = limiter();
    const check = slowWrongPassword();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signIn.attempt(`203.0.113.${i + 1}`, i % 2 ? 'victim@example.com' : ' VICTIM@example.com', check.run),
      ),
    );
    expect(check.runs).toBe(10);
  });

  it('one address across many emails is limited', async () => {
    const signIn = limiter();
    const check = slowWrongPassword();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn.attempt('192.0.2.50', `user-${i}@example.com`, check.run)),
    );
    expect(check.runs).toBe(10);
  });

  it('successful sign-ins do not count; failures still do', async () => {
    const signIn = limiter();
    for (let i = 0; i < 30; i++) {
      const outcome = await signIn.attempt('192.0.2.60', 'busy@example.com', async () => ({ id: 'user' }));
      expect(outcome).toEqual({ isRateLimited: false, result: { id: 'user' } });
    }
    const check = slowWrongPassword();
    for (let i = 0; i < 12; i++) await signIn.attempt('192.0.2.60', 'other@example.com', check.run);
    expect(check.runs).toBe(10);
    // That address is now spent, even for the right password of the busy user.
    expect(await signIn.attempt('192.0.2.60', 'busy@example.com', async () => ({ id: 'user' }))).toEqual({
      isRateLimited: true,
    });
  });
});

describe.each(stores)('API rate limiter (%s)', (_name, redis) => {
  // A slow refill (1/s), so that the count does not depend on how long the calls take.
  const limits = {
    general: { perSecond: 1, burst: 200 },
    statistics: { perSecond: 1, burst: 1 },
    session: { perSecond: 1, burst: 200 },
  };

  it('per account: the burst, then 429 with Retry-After in whole seconds; buckets are separate', async () => {
    const limiter = createRateLimiter({ redis, namespace: freshNamespace(), logger, ...limits });
    const decisions = await Promise.all(Array.from({ length: 260 }, () => limiter.consume('general', 'account-1')));
    const allowed = decisions.filter((decision) => decision.isAllowed).length;
    // 200, plus what refilled while the calls ran.
    expect(allowed).toBeGreaterThanOrEqual(200);
    expect(allowed).toBeLessThan(210);
    expect(decisions.find((decision) => !decision.isAllowed)).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    expect(await limiter.consume('general', 'account-2')).toEqual({ isAllowed: true });
    expect(await limiter.consume('statistics', 'account-1')).toEqual({ isAllowed: true });
    expect(await limiter.consume('statistics', 'account-1')).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
  });
});

describe('a Redis that is down', () => {
  it('lets requests through and warns once in a while', async () => {
    const lines: string[] = [];
    const warnings = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    deadRedis.on('error', () => {});
    const limiter = createRateLimiter({
      redis: deadRedis,
      namespace: 'down',
      logger: warnings,
      general: { perSecond: 1, burst: 1 },
      statistics: { perSecond: 1, burst: 1 },
      session: { perSecond: 1, burst: 1 },
    });
    for (let i = 0; i < 5; i++) expect(await limiter.consume('general', 'account')).toEqual({ isAllowed: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Redis is unavailable');
    deadRedis.disconnect();
  });
});
