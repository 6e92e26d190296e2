/**
 * When to try a failed delivery again: after the n-th failed attempt of its run, the n-th entry of
 * WEBHOOK_RETRY_SCHEDULE (seconds; by default 5 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h,
 * 8 h: 11 attempts over about a day), give or take 10% so that a receiver that was down is not hit by
 * every retry at once. Null once the schedule is used up: the delivery has failed.
 */
export function nextRetryDelayMs(
  failedAttemptsInRun: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): number | null {
  if (failedAttemptsInRun < 1 || failedAttemptsInRun > schedule.length) return null;
  return Math.round(schedule[failedAttemptsInRun - 1] * 1000 * (0.9 + 0.2 * random()));
}

/** The longest an endpoint is left alone while it fails: a receiver that comes back is found within this. */
export const MAX_ENDPOINT_BACKOFF_MS = 5 * 60_000;

/**
 * How long a failing endpoint gets no delivery after its n-th failure in a row: the schedule's n-th
 * entry (its last once past the end), at most MAX_ENDPOINT_BACKOFF_MS. Never longer than a
 * delivery's own retry delay at the same step, so the backoff adds no wait to a single delivery.
 */
export function endpointBackoffMs(failuresInRow: number, schedule: readonly number[]): number {
  const step = Math.min(Math.max(failuresInRow, 1), schedule.length) - 1;
  return Math.min(schedule[step] * 1000 * 0.9, MAX_ENDPOINT_BACKOFF_MS);
}
