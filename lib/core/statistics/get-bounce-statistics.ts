import { defineVerb } from '@/lib/core/verb';
import { BOUNCE_CLASSIFICATIONS, BOUNCE_COLUMN_OF } from '@/lib/db/schema';
import { statisticsQuerySchema } from './schemas';
import { resolveStatisticsRequest, statisticsDomains } from './internal/statistics-request';
import { sumRollups } from './internal/sum-rollups';

const COUNTERS = BOUNCE_CLASSIFICATIONS.map((classification) => BOUNCE_COLUMN_OF[classification]);

/** Bounces per bucket by classification, most frequent first; classifications with none are left out. */
export const getBounceStatistics = defineVerb({
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
        const bounces = BOUNCE_CLASSIFICATIONS.map((classification) => ({
          classification,
          count: sums?.[BOUNCE_COLUMN_OF[classification]] ?? 0,
        }))
          .filter((bounce) => bounce.count > 0)
          .sort((a, b) => b.count - a.count || a.classification.localeCompare(b.classification));
        return { from_timestamp: bucket.from.toISOString(), to_timestamp: bucket.to.toISOString(), bounces };
      }),
    };
  },
});
