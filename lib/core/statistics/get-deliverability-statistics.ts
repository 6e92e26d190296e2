import { defineVerb } from '@/lib/core/verb';
import { statisticsQuerySchema } from './schemas';
import { resolveStatisticsRequest, statisticsDomains } from './internal/statistics-request';
import { sumRollups } from './internal/sum-rollups';

const COUNTERS = [
  'reception',
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'suppressed',
  'opened',
  'clicked',
] as const;

/** Outcomes per bucket, from the rollups: messages accepted, delivered, ... and first opened or clicked. */
export const getDeliverabilityStatistics = defineVerb({
  scope: 'statistics-transactional:read:{domain}',
  input: statisticsQuerySchema,
  domains: statisticsDomains,
  async run(ctx, query) {
    const { buckets, ranges, filters } = await resolveStatisticsRequest(ctx, query);
    const rows = await sumRollups(ctx.db, { ranges, buckets, filters, counters: COUNTERS });
    const byBucket = new Map(rows.map((row) => [row.bucket, row.sums]));
    return {
      object: 'list' as const,
      data: buckets.map((bucket, index) => {
        const sums = byBucket.get(index);
        return {
          from_timestamp: bucket.from.toISOString(),
          to_timestamp: bucket.to.toISOString(),
          ...(Object.fromEntries(COUNTERS.map((counter) => [`${counter}_count`, sums?.[counter] ?? 0])) as Record<
            `${(typeof COUNTERS)[number]}_count`,
            number
          >),
        };
      }),
    };
  },
});
