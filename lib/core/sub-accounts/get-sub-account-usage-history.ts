import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { statsDaily } from '@/lib/db/schema';
import { billingPeriodOf } from './internal/billing-period';
import { getPartnerAccount, getSubAccountOfParent } from './internal/queries';
import { subAccountUsageHistoryQuerySchema } from './schemas';

/**
 * Mailstead extension behind the Sub accounts page's chart: a sub account's usage month by month
 * (UTC calendar months, the current one last), from the same daily counters as the usage report and
 * the credit cap. A deleted sub account keeps its history, as the report keeps its usage.
 */
export const getSubAccountUsageHistory = defineVerb({
  scope: 'sub-accounts:usage',
  input: subAccountUsageHistoryQuerySchema,
  async run({ db, principal, now }, input) {
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const child = await getSubAccountOfParent(db, parent.id, input.sub_account_id, { isDeletedIncluded: true });
    const current = billingPeriodOf(now());
    const months = Array.from({ length: input.months }, (_, index) => {
      const start = new Date(
        Date.UTC(current.start.getUTCFullYear(), current.start.getUTCMonth() - (input.months - 1 - index), 1),
      );
      return { start, end: billingPeriodOf(start).end };
    });
    const month = sql<string>`to_char(${statsDaily.day} at time zone 'UTC', 'YYYY-MM')`;
    const rows = await db
      .select({
        month,
        reception: sql<string>`coalesce(sum(${statsDaily.reception}), 0)`,
        delivered: sql<string>`coalesce(sum(${statsDaily.delivered}), 0)`,
        bounced: sql<string>`coalesce(sum(${statsDaily.bounced}), 0)`,
      })
      .from(statsDaily)
      .where(
        and(eq(statsDaily.accountId, child.id), gte(statsDaily.day, months[0].start), lt(statsDaily.day, current.end)),
      )
      .groupBy(month);
    const byMonth = new Map(rows.map((row) => [row.month, row]));
    return {
      object: 'list' as const,
      sub_account_id: child.id,
      monthly_credit: child.monthlyCredit,
      data: months.map(({ start, end }) => {
        const row = byMonth.get(start.toISOString().slice(0, 7));
        return {
          month: start.toISOString().slice(0, 7),
          from_timestamp: start.toISOString(),
          to_timestamp: end.toISOString(),
          reception_count: Number(row?.reception ?? 0),
          delivered_count: Number(row?.delivered ?? 0),
          bounced_count: Number(row?.bounced ?? 0),
        };
      }),
    };
  },
});

export type SubAccountUsageHistory = Awaited<ReturnType<typeof getSubAccountUsageHistory>>;
