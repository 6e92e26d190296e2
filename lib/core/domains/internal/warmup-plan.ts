import type { MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';
import type { WarmupDayLimits } from '@/lib/db/schema';

const DAY_MS = 86_400_000;

/** The named providers the default plan ramps; `other` is many small receivers, none of which sees much. */
const RAMPED_PROVIDERS = ['gmail', 'microsoft', 'yahoo', 'apple'] as const;

/**
 * The default ramp, per provider and UTC day: about doubling for a week, then +40-50% a day, with no
 * limit from day 18. Sources and reasoning in docs/smtp-and-inbound.md#warm-up.
 */
export const DEFAULT_WARMUP_LIMITS = [
  50, 100, 200, 400, 800, 1500, 2500, 4000, 6000, 9000, 13_000, 18_000, 25_000, 35_000, 50_000, 70_000, 100_000,
] as const;

export const DEFAULT_WARMUP_PLAN: WarmupDayLimits[] = DEFAULT_WARMUP_LIMITS.map((limit) =>
  Object.fromEntries(RAMPED_PROVIDERS.map((provider) => [provider, limit])),
);

/** A custom plan, or the default when none is stored. */
export function warmupPlanOf(stored: WarmupDayLimits[] | null): WarmupDayLimits[] {
  return stored && stored.length > 0 ? stored : DEFAULT_WARMUP_PLAN;
}

/** `YYYY-MM-DD` of a time's UTC day: the counters' key. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The start of the UTC day after `at`: when held mail is due again and the counters start afresh. */
export function nextUtcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

/** Day 1 is the UTC day warm-up started; a start in the future counts as day 1 (the strictest). */
export function warmupDayNumber(startedAt: Date, now: Date): number {
  const days = Math.floor(now.getTime() / DAY_MS) - Math.floor(startedAt.getTime() / DAY_MS);
  return Math.max(1, days + 1);
}

/** A provider's limit on a day of the plan; null for no limit (a provider the day leaves out, or past the plan's end). */
export function warmupLimit(plan: WarmupDayLimits[], day: number, provider: MailboxProvider): number | null {
  const limits = plan[day - 1];
  if (!limits) return null;
  return limits[provider] ?? null;
}

/** Whether the plan still limits anything on that day: past its last day, warm-up is over and nothing is counted. */
export function isWarmupOver(plan: WarmupDayLimits[], day: number): boolean {
  return day > plan.length;
}

/**
 * The counters' key for the server's IP warm-up (IP_WARMUP_STARTED_AT): warmup_counters rows are per
 * domain id, and no domain has the nil UUID (ids are UUIDv7).
 */
export const SERVER_IP_COUNTER_ID = '00000000-0000-0000-0000-000000000000';
