import { rateOf } from './format';
import { fillPeriods, periodLabels, type StatisticsWindow } from './statistics-view';
import type { BounceBucket, DeliverabilityBucket, DeliveryTimeBucket } from './types';

/** The outcome counters of a deliverability bucket, as the charts name them. */
export const OUTCOMES = ['delivered', 'deferred', 'bounced', 'failed', 'suppressed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export type Totals = Record<Outcome | 'accepted' | 'opened' | 'clicked', number>;

export type PeriodPoint = Totals & {
  key: string;
  tick: string;
  full: string;
  openRate: number | null;
  clickRate: number | null;
  bounceRate: number | null;
};

const emptyBucket = (from: string, to: string): DeliverabilityBucket => ({
  from_timestamp: from,
  to_timestamp: to,
  reception_count: 0,
  delivered_count: 0,
  deferred_count: 0,
  bounced_count: 0,
  failed_count: 0,
  suppressed_count: 0,
  opened_count: 0,
  clicked_count: 0,
});

const addBuckets = (into: DeliverabilityBucket, from: DeliverabilityBucket): DeliverabilityBucket => ({
  ...into,
  reception_count: into.reception_count + from.reception_count,
  delivered_count: into.delivered_count + from.delivered_count,
  deferred_count: into.deferred_count + from.deferred_count,
  bounced_count: into.bounced_count + from.bounced_count,
  failed_count: into.failed_count + from.failed_count,
  suppressed_count: into.suppressed_count + from.suppressed_count,
  opened_count: into.opened_count + from.opened_count,
  clicked_count: into.clicked_count + from.clicked_count,
});

const totalsOfBucket = (bucket: DeliverabilityBucket): Totals => ({
  accepted: bucket.reception_count,
  delivered: bucket.delivered_count,
  deferred: bucket.deferred_count,
  bounced: bucket.bounced_count,
  failed: bucket.failed_count,
  suppressed: bucket.suppressed_count,
  opened: bucket.opened_count,
  clicked: bucket.clicked_count,
});

/**
 * Bounce rate as the pause rule measures it: bounces among deliveries and bounces. Opens and clicks
 * are counted once per message, against delivered messages.
 */
export const bounceRateOf = (totals: Totals) => rateOf(totals.bounced, totals.delivered + totals.bounced);
export const openRateOf = (totals: Totals) => rateOf(totals.opened, totals.delivered);
export const clickRateOf = (totals: Totals) => rateOf(totals.clicked, totals.delivered);

/** One point per period of the window, gaps filled with zeros, labelled in the viewer's time zone. */
export function periodPoints(buckets: readonly DeliverabilityBucket[], window: StatisticsWindow): PeriodPoint[] {
  return fillPeriods(buckets, window, emptyBucket, addBuckets).map((bucket) => {
    const totals = totalsOfBucket(bucket);
    return {
      key: bucket.from_timestamp,
      ...periodLabels(bucket.from_timestamp, bucket.to_timestamp, window.groupBy),
      ...totals,
      openRate: openRateOf(totals),
      clickRate: clickRateOf(totals),
      bounceRate: bounceRateOf(totals),
    };
  });
}

export function totalsOf(points: readonly Totals[]): Totals {
  const sum = (name: keyof Totals) => points.reduce((total, point) => total + point[name], 0);
  return {
    accepted: sum('accepted'),
    delivered: sum('delivered'),
    deferred: sum('deferred'),
    bounced: sum('bounced'),
    failed: sum('failed'),
    suppressed: sum('suppressed'),
    opened: sum('opened'),
    clicked: sum('clicked'),
  };
}

/** Bounces of the whole window per classification, most frequent first. */
export function bounceClassifications(buckets: readonly BounceBucket[]): { classification: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const bucket of buckets)
    for (const bounce of bucket.bounces)
      counts.set(bounce.classification, (counts.get(bounce.classification) ?? 0) + bounce.count);
  return [...counts]
    .map(([classification, count]) => ({ classification, count }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || a.classification.localeCompare(b.classification));
}

/** Average delivery time of the whole window per recipient domain (weighted by messages), busiest first. */
export function deliveryTimesByDomain(
  buckets: readonly DeliveryTimeBucket[],
): { domain: string; seconds: number; count: number }[] {
  const sums = new Map<string, { seconds: number; count: number }>();
  for (const bucket of buckets) {
    for (const entry of bucket.delivery_times) {
      if (entry.delivery_time === null || entry.count <= 0) continue;
      const sum = sums.get(entry.recipient_domain) ?? { seconds: 0, count: 0 };
      sum.seconds += entry.delivery_time * entry.count;
      sum.count += entry.count;
      sums.set(entry.recipient_domain, sum);
    }
  }
  return [...sums]
    .map(([domain, sum]) => ({ domain, seconds: sum.seconds / sum.count, count: sum.count }))
    .sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain));
}

/** Average delivery time of the whole window, weighted by each period's deliveries. */
export function averageDeliveryTime(buckets: readonly DeliveryTimeBucket[]): number | null {
  let seconds = 0;
  let count = 0;
  for (const bucket of buckets) {
    if (bucket.avg_delivery_time === null || bucket.delivered_count <= 0) continue;
    seconds += bucket.avg_delivery_time * bucket.delivered_count;
    count += bucket.delivered_count;
  }
  return count > 0 ? seconds / count : null;
}
