import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { MAILBOX_PROVIDERS, MAILBOX_PROVIDER_LABELS } from '@/lib/core/providers/classify-mailbox-provider';
import type { DbOrTx } from '@/lib/db/client';
import { warmupCounters, type WarmupDayLimits } from '@/lib/db/schema';
import { getDomainInAccount } from './internal/queries';
import {
  isWarmupOver,
  nextUtcDay,
  SERVER_IP_COUNTER_ID,
  utcDay,
  warmupDayNumber,
  warmupLimit,
  warmupPlanOf,
} from './internal/warmup-plan';
import { domainPathSchema } from './schemas';

/** Today's day of a plan, its limits and the day's counters of one counter (a domain, or the server's IP). */
async function today(db: DbOrTx, counterId: string, plan: WarmupDayLimits[], startedAt: Date | null, at: Date) {
  const day = startedAt ? warmupDayNumber(startedAt, at) : null;
  const isOver = day !== null && isWarmupOver(plan, day);
  const counts = await db
    .select({ provider: warmupCounters.provider, sent: warmupCounters.sent, held: warmupCounters.held })
    .from(warmupCounters)
    .where(and(eq(warmupCounters.domainId, counterId), eq(warmupCounters.day, utcDay(at))));
  const byProvider = new Map(counts.map((count) => [count.provider, count]));
  const providers = MAILBOX_PROVIDERS.map((provider) => ({
    provider,
    label: MAILBOX_PROVIDER_LABELS[provider],
    limit: day === null || isOver ? null : warmupLimit(plan, day, provider),
    sent: byProvider.get(provider)?.sent ?? 0,
    held: byProvider.get(provider)?.held ?? 0,
  }));
  return {
    day,
    plan_days: plan.length,
    is_over: isOver,
    held: providers.reduce((sum, provider) => sum + provider.held, 0),
    providers,
  };
}

/**
 * Today's warm-up of a domain: the day of the plan, and per provider today's limit, the messages
 * handed to it and those held for tomorrow, read from the day's counters (never from messages); and,
 * while the server's IP warms up too (IP_WARMUP_STARTED_AT), the same for all of the server's mail.
 * Mailstead extension.
 */
export const getDomainWarmup = defineVerb({
  scope: 'domains:read',
  input: domainPathSchema,
  async run({ db, principal, now, config }, input) {
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    const at = now();
    const domain = await today(
      db,
      row.id,
      warmupPlanOf(row.warmupPlan),
      row.warmupEnabled ? row.warmupStartedAt : null,
      at,
    );
    const ip = config.ipWarmup;
    return {
      object: 'warmup' as const,
      enabled: row.warmupEnabled,
      plan: row.warmupPlan ? ('custom' as const) : ('default' as const),
      started_at: row.warmupStartedAt?.toISOString() ?? null,
      ...domain,
      resets_at: nextUtcDay(at).toISOString(),
      server_ip: ip
        ? {
            started_at: ip.startedAt.toISOString(),
            plan: ip.plan ? ('custom' as const) : ('default' as const),
            ...(await today(db, SERVER_IP_COUNTER_ID, warmupPlanOf(ip.plan), ip.startedAt, at)),
          }
        : null,
    };
  },
});
