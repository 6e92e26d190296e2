import { defineVerb } from '@/lib/core/verb';
import { MAILBOX_PROVIDERS } from '@/lib/core/providers/classify-mailbox-provider';
import { DELIVERY_TIME_BOUNDS_SECONDS, DELIVERY_TIME_COLUMNS } from '@/lib/db/schema';
import { statisticsQuerySchema } from './schemas';
import { resolveStatisticsRequest, statisticsDomains } from './internal/statistics-request';
import { sumRollupsByProvider } from './internal/sum-rollups-by-provider';

const OUTCOMES = [
  'reception',
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'opened',
  'clicked',
  'complained',
] as const;
const COUNTERS = [...OUTCOMES, 'deliveryTimeSumMs', 'deliveryTimeCount', ...DELIVERY_TIME_COLUMNS] as const;

/** The upper bound of the histogram bin where the share `quantile` of deliveries is reached (null past the last bound). */
function percentileBound(histogram: number[], quantile: number): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [bin, count] of histogram.entries()) {
    seen += count;
    if (seen >= total * quantile) return DELIVERY_TIME_BOUNDS_SECONDS[bin] ?? null;
  }
  return null;
}

/**
 * Mailstead extension: the window's outcomes, opens and delivery times per mailbox provider (every
 * provider listed, zeros included), from the rollups; the same filters as the other reports.
 */
export const getProviderStatistics = defineVerb({
  scope: 'statistics-transactional:read:{domain}',
  input: statisticsQuerySchema,
  domains: statisticsDomains,
  async run(ctx, query) {
    const { ranges, filters } = await resolveStatisticsRequest(ctx, query);
    const sums = await sumRollupsByProvider(ctx.db, { ranges, filters, counters: COUNTERS });
    const providers = query.provider ? [query.provider] : MAILBOX_PROVIDERS;
    return {
      object: 'list' as const,
      data: providers.map((provider) => {
        const of = sums[provider];
        const histogram = DELIVERY_TIME_COLUMNS.map((column) => of[column]);
        return {
          provider,
          ...(Object.fromEntries(OUTCOMES.map((counter) => [`${counter}_count`, of[counter]])) as Record<
            `${(typeof OUTCOMES)[number]}_count`,
            number
          >),
          avg_delivery_time:
            of.deliveryTimeCount > 0 ? Math.round(of.deliveryTimeSumMs / of.deliveryTimeCount) / 1000 : 0,
          median_delivery_time: percentileBound(histogram, 0.5),
          p95_delivery_time: percentileBound(histogram, 0.95),
        };
      }),
    };
  },
});
