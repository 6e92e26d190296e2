import { invalidInput } from '@/lib/shared/errors';

const DAY_MS = 24 * 3600 * 1000;
// Clocks differ a little; a first attempt this far in the past still means "now".
const PAST_TOLERANCE_MS = 5 * 60 * 1000;

/** first_attempt within 7 days ahead, expires within 8 days and after the first attempt; default expiry 24 h after it. */
export function resolveSchedule(
  schedule: { first_attempt?: string | null; expires?: string | null } | null | undefined,
  now: Date,
) {
  let firstAttemptAt = now;
  if (schedule?.first_attempt) {
    firstAttemptAt = new Date(schedule.first_attempt);
    if (firstAttemptAt.getTime() > now.getTime() + 7 * DAY_MS)
      throw invalidInput('schedule.first_attempt: must be at most 7 days ahead', 'schedule');
    if (firstAttemptAt.getTime() < now.getTime() - PAST_TOLERANCE_MS)
      throw invalidInput('schedule.first_attempt: must be in the future', 'schedule');
    if (firstAttemptAt < now) firstAttemptAt = now;
  }
  let expiresAt = new Date(firstAttemptAt.getTime() + DAY_MS);
  if (schedule?.expires) {
    expiresAt = new Date(schedule.expires);
    if (expiresAt.getTime() > now.getTime() + 8 * DAY_MS)
      throw invalidInput('schedule.expires: must be at most 8 days ahead', 'schedule');
    if (expiresAt <= now) throw invalidInput('schedule.expires: must be in the future', 'schedule');
    if (expiresAt <= firstAttemptAt)
      throw invalidInput('schedule.expires: must be after schedule.first_attempt', 'schedule');
  }
  return { firstAttemptAt, expiresAt, isScheduled: firstAttemptAt.getTime() > now.getTime() + 1000 };
}
