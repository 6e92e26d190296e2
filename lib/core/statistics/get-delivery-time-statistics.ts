import { defineVerb } from '@/lib/core/verb';
import { DELIVERY_TIME_BOUNDS_SECONDS, DELIVERY_TIME_COLUMNS } from '@/lib/db/schema';
import { statisticsQuerySchema } from './schemas';
import { resolveStatisticsRequest, statisticsDomains } from './internal/statistics-request';
import { sumRollups } from './internal/sum-rollups';

const COUNTERS = ['deliveryTimeCount', 'deliveryTimeSumMs', ...DELIVERY_TIME_COLUMNS] as const;

const seconds = (sumMs: number, count: number) => (count > 0 ? Math.round(sumMs / count) / 1000 : 0);

/**
 * Delivery time per bucket: the average from reception (or the scheduled time) to delivery, the
 * same per recipient domain (busiest first), and a histogram of fixed bins (a Mailstead extension).
 */
export const getDeliveryTimeStatistics = defineVerb({
  scope: 'statistics-transactional:read:{domain}',
  input: statisticsQuerySchema,
  domains: statisticsDomains,
  async run(ctx, query) {
    const { buckets, ranges, filters } = await resolveStatisticsRequest(ctx, query);
    const rows = await sumRollups(ctx.db, {
      ranges,
      buckets,
      filters,
      counters: COUNTERS,
      byRecipientDomain: { counters: ['deliveryTimeCount', 'deliveryTimeSumMs'], nonZero: 'deliveryTimeCount' },
    });
    const byBucket = new Map(rows.map((row) => [row.bucket, row]));
    return {
      object: 'list' as const,
      data: buckets.map((bucket, index) => {
        const row = byBucket.get(index);
        const total = (counter: (typeof COUNTERS)[number]) => row?.sums[counter] ?? 0;
        const count = total('deliveryTimeCount');
        return {
          from_timestamp: bucket.from.toISOString(),
          to_timestamp: bucket.to.toISOString(),
          avg_delivery_time: seconds(total('deliveryTimeSumMs'), count),
          delivered_count: count,
          delivery_times: (row?.byRecipientDomain ?? [])
            .map(({ recipientDomain, sums }) => ({
              recipient_domain: recipientDomain,
              delivery_time: seconds(sums.deliveryTimeSumMs, sums.deliveryTimeCount),
              count: sums.deliveryTimeCount,
            }))
            .sort((a, b) => b.count - a.count || a.recipient_domain.localeCompare(b.recipient_domain)),
          delivery_time_histogram: DELIVERY_TIME_COLUMNS.map((column, bin) => ({
            up_to_seconds: DELIVERY_TIME_BOUNDS_SECONDS[bin] ?? null,
            count: total(column),
          })),
        };
      }),
    };
  },
});
