import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { MAX_ENDPOINT_BACKOFF_MS, endpointBackoffMs, nextRetryDelayMs } from '@/lib/webhooks/retry-schedule';

describe('webhook retry schedule', () => {
  const schedule = [5, 60, 300];

  it('the n-th failure of a run waits the n-th entry, within 10% either way', () => {
    expect(nextRetryDelayMs(1, schedule, () => 0.5)).toBe(5000);
    expect(nextRetryDelayMs(2, schedule, () => 0)).toBe(54_000);
    expect(nextRetryDelayMs(3, schedule, () => 1)).toBe(330_000);
    for (let i = 0; i < 100; i++) {
      const delay = nextRetryDelayMs(2, schedule)!;
      expect(delay).toBeGreaterThanOrEqual(54_000);
      expect(delay).toBeLessThanOrEqual(66_000);
    }
  });

  it('after the last entry there is no next attempt: the delivery has failed', () => {
    expect(nextRetryDelayMs(4, schedule)).toBeNull();
    expect(nextRetryDelayMs(0, schedule)).toBeNull();
  });

  it('the default schedule makes 11 attempts spread over about a day', () => {
    const defaults = loadConfig({}).webhooks;
    expect(defaults.retrySchedule).toHaveLength(10);
    const totalHours = defaults.retrySchedule.reduce((sum, seconds) => sum + seconds, 0) / 3600;
    expect(totalHours).toBeGreaterThan(20);
    expect(totalHours).toBeLessThan(26);
    expect(defaults).toMatchObject({ timeoutMs: 10_000, disableAfterFailures: 100, disableAfterSeconds: 3600 });
  });

  it('WEBHOOK_RETRY_SCHEDULE and the disable rule are configurable; nonsense is refused', () => {
    expect(
      loadConfig({
        WEBHOOK_RETRY_SCHEDULE: '1, 2,3',
        WEBHOOK_DISABLE_AFTER_FAILURES: '3',
        WEBHOOK_DISABLE_AFTER_SECONDS: '0',
      }).webhooks,
    ).toMatchObject({ retrySchedule: [1, 2, 3], disableAfterFailures: 3, disableAfterSeconds: 0 });
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1,x' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER_FAILURES: '0' })).toThrow(/WEBHOOK_DISABLE_AFTER_FAILURES/);
  });

  it('a failing endpoint waits no longer than a delivery at the same step would, and at most 5 minutes', () => {
    expect(endpointBackoffMs(1, schedule)).toBe(4500);
    expect(endpointBackoffMs(2, schedule)).toBe(54_000);
    for (let step = 1; step <= schedule.length; step++)
      expect(endpointBackoffMs(step, schedule)).toBeLessThanOrEqual(nextRetryDelayMs(step, schedule, () => 0)!);
    expect(endpointBackoffMs(3, schedule)).toBe(270_000);
    expect(endpointBackoffMs(500, [5, 60, 300, 28_800])).toBe(MAX_ENDPOINT_BACKOFF_MS);
  });
});
