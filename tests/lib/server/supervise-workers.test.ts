import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, restartDelayMs } from '@/lib/server/supervise-workers';

describe('restartDelayMs', () => {
  it('doubles with each recent crash from the first backoff, up to the cap', () => {
    expect([1, 2, 3, 4].map((crashes) => restartDelayMs(crashes))).toEqual([500, 1000, 2000, 4000]);
    expect(restartDelayMs(20)).toBe(DEFAULT_POLICY.maxBackoffMs);
  });

  it('gives up before the cap matters with the default policy (5 crashes a minute)', () => {
    const total = Array.from({ length: DEFAULT_POLICY.maxCrashes - 1 }, (_, index) => restartDelayMs(index + 1)).reduce(
      (sum, ms) => sum + ms,
      0,
    );
    expect(total).toBeLessThan(DEFAULT_POLICY.crashWindowMs);
  });
});
