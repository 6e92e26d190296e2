import { and, eq, sql } from 'drizzle-orm';
import {
  isWarmupOver,
  nextUtcDay,
  SERVER_IP_COUNTER_ID,
  utcDay,
  warmupDayNumber,
  warmupLimit,
  warmupPlanOf,
} from '@/lib/core/domains/internal/warmup-plan';
import { MAILBOX_PROVIDER_LABELS, type MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';
import type { Db } from '@/lib/db/client';
import { type domains, type WarmupDayLimits, warmupCounters } from '@/lib/db/schema';

type Domain = typeof domains.$inferSelect;

/** The server's own warm-up (IP_WARMUP_STARTED_AT): all its direct mail, whatever the domain. */
export type IpWarmup = { startedAt: Date; plan: WarmupDayLimits[] | null };

/** A message a warm-up plan keeps for the next UTC day (hold-warmup-messages.ts writes it). */
export type WarmupHold = {
  kind: 'held';
  log: string;
  until: Date;
  provider: MailboxProvider;
  /** The counter whose limit was reached: the domain's id, or SERVER_IP_COUNTER_ID. */
  counterId: string;
};

type Limit = { counterId: string; plan: WarmupDayLimits[]; startedAt: Date; label: string };

/**
 * Decides, per message of a warming domain (or of any domain while the server's IP warms up),
 * whether its provider's limit for the UTC day leaves room.
 * The room is reserved by one conditional upsert of the day's counter (`sent < limit`), atomic on
 * PostgreSQL under any number of workers: the limit is never exceeded. A reserved message that the
 * MX then defers counts again when it is retried (the counter is of messages handed to the MX).
 * A (counter, provider, day, limit) found full is remembered, so the rest of the day's excess is held
 * without a round trip; a counter shrinks only by a give-back, which forgets that memory.
 */
export class WarmupGate {
  private full = new Set<string>();
  private fullDay = '';

  constructor(
    private readonly db: Db,
    private readonly ipWarmup: IpWarmup | null = null,
  ) {}

  /**
   * null: the message may go (it was counted); a hold when a day's limit is reached: the server's
   * IP warm-up first (direct delivery only: through a relay the relay's addresses send it, not
   * ours), then the domain's. A message the domain holds gives back its IP count.
   */
  async admit(
    domain: Domain,
    provider: MailboxProvider,
    now: Date,
    options: { isRelayed?: boolean } = {},
  ): Promise<WarmupHold | null> {
    const ip = this.ipWarmup && !options.isRelayed ? this.ipLimit(this.ipWarmup) : null;
    const ipOutcome = ip ? await this.reserve(ip, provider, now) : null;
    if (ipOutcome?.kind === 'held') return ipOutcome;
    if (!domain.warmupEnabled || !domain.warmupStartedAt) return null;
    const domainLimit = {
      counterId: domain.id,
      plan: warmupPlanOf(domain.warmupPlan),
      startedAt: domain.warmupStartedAt,
      label: 'warm-up',
    };
    const outcome = await this.reserve(domainLimit, provider, now);
    if (outcome?.kind === 'held' && ipOutcome?.kind === 'reserved') await this.giveBack(ip!, provider, now);
    return outcome?.kind === 'held' ? outcome : null;
  }

  /** Whether a message of this domain may be limited today: the one check made for every message. */
  applies(domain: Domain, now: Date, options: { isRelayed?: boolean } = {}): boolean {
    if (domain.warmupEnabled) return true;
    if (!this.ipWarmup || options.isRelayed) return false;
    const { plan, startedAt } = this.ipLimit(this.ipWarmup);
    return !isWarmupOver(plan, warmupDayNumber(startedAt, now));
  }

  private ipLimit(ip: IpWarmup): Limit {
    return {
      counterId: SERVER_IP_COUNTER_ID,
      plan: warmupPlanOf(ip.plan),
      startedAt: ip.startedAt,
      label: 'IP warm-up',
    };
  }

  /** One conditional upsert of the day's counter: reserved, held, or null when the plan no longer limits. */
  private async reserve(
    limit: Limit,
    provider: MailboxProvider,
    now: Date,
  ): Promise<WarmupHold | { kind: 'reserved' } | null> {
    const dayNumber = warmupDayNumber(limit.startedAt, now);
    if (isWarmupOver(limit.plan, dayNumber)) return null;
    const max = warmupLimit(limit.plan, dayNumber, provider);
    const day = utcDay(now);
    if (day !== this.fullDay) {
      this.full.clear();
      this.fullDay = day;
    }
    const key = `${limit.counterId}|${provider}|${max}`;
    if (max !== null && (max === 0 || this.full.has(key))) return hold(limit, provider, max, dayNumber, now);
    const [reserved] = await this.db
      .insert(warmupCounters)
      .values({ domainId: limit.counterId, provider, day, sent: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: [warmupCounters.domainId, warmupCounters.provider, warmupCounters.day],
        set: { sent: sql`${warmupCounters.sent} + 1`, updatedAt: now },
        setWhere: max === null ? undefined : sql`${warmupCounters.sent} < ${max}`,
      })
      .returning({ sent: warmupCounters.sent });
    if (reserved) return { kind: 'reserved' };
    this.full.add(key);
    return hold(limit, provider, max!, dayNumber, now);
  }

  private async giveBack(limit: Limit, provider: MailboxProvider, now: Date) {
    await this.db
      .update(warmupCounters)
      .set({ sent: sql`greatest(${warmupCounters.sent} - 1, 0)`, updatedAt: now })
      .where(
        and(
          eq(warmupCounters.domainId, limit.counterId),
          eq(warmupCounters.provider, provider),
          eq(warmupCounters.day, utcDay(now)),
        ),
      );
    // Room again: the memory of a full counter must not outlive it.
    for (const key of this.full) if (key.startsWith(`${limit.counterId}|${provider}|`)) this.full.delete(key);
  }
}

function hold(limit: Limit, provider: MailboxProvider, max: number, day: number, now: Date): WarmupHold {
  const until = nextUtcDay(now);
  const label = MAILBOX_PROVIDER_LABELS[provider];
  return {
    kind: 'held',
    provider,
    until,
    counterId: limit.counterId,
    log: `${limit.label}: ${label} daily limit ${max} reached (day ${day} of ${limit.plan.length}); held until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  };
}
