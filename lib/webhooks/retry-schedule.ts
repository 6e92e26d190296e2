/**
 * When to try a failed delivery again: after the n-th failed attempt of its run, the n-th entry of
 * WEBHOOK_RETRY_SCHEDULE (seconds; by default 5 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h,
 * 8 h: 11 attempts over about a day), give or take 10% so that a receiver that was down is not hit by
 * every retry at once. Null once the schedule is used up: the delivery has failed.
 */
export function nextRetryDelayMs(failedAttemptsInRun: number, schedule: readonly number[], random: () => number = Math.random): number | null {
  if (failedAttemptsInRun < 1 || failedAttemptsInRun > schedule.length) return null;
  return Math.round(schedule[failedAttemptsInRun - 1] * 1000 * (0.9 + 0.2 * random()));
}
