import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { statsDaily } from '@/lib/db/schema';

export type BillingPeriod = { start: Date; end: Date };

/** The calendar month (UTC) that holds `at`: the period of usage reports and of `monthly_credit`. */
export function billingPeriodOf(at: Date): BillingPeriod {
  return {
    start: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
    end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
  };
}

/**
 * Messages accepted per account in the period, from the daily reception counters that every
 * acceptance writes in its own statement, so the count is never behind the queue.
 */
export async function countReceptions(
  db: DbOrTx,
  accountIds: readonly string[],
  period: BillingPeriod,
): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ accountId: statsDaily.accountId, reception: sql<string>`coalesce(sum(${statsDaily.reception}), 0)` })
    .from(statsDaily)
    .where(
      and(
        inArray(statsDaily.accountId, [...accountIds]),
        gte(statsDaily.day, period.start),
        lt(statsDaily.day, period.end),
      ),
    )
    .groupBy(statsDaily.accountId);
  return new Map(rows.map((row) => [row.accountId, Number(row.reception)]));
}
