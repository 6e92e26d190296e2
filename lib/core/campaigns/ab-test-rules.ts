import type { AbMetric } from './ab-test-schemas';

/**
 * The rules of an A/B test (marketing-api.md, A/B tests) that need no database, so the wizard's
 * numbers use them too: how the frozen audience splits, and which variant wins.
 */

export type AbSplit = { test: number; perVariant: number[]; rest: number };

/**
 * `test_percent` of the audience (rounded, at least one per variant) split as evenly as can be (the
 * first variants take the remainder), and the rest for the winner. Null when the audience is too
 * small for every variant to get someone and the winner to have someone left to go to.
 */
export function planAbSplit(recipients: number, testPercent: number, variantCount: number): AbSplit | null {
  const test = Math.max(variantCount, Math.round((recipients * testPercent) / 100));
  if (recipients - test < 1) return null;
  const perVariant = Array.from(
    { length: variantCount },
    (_, index) => Math.floor(test / variantCount) + (index < test % variantCount ? 1 : 0),
  );
  return { test, perVariant, rest: recipients - test };
}

/** The fewest recipients an A/B test of `variantCount` variants can go to: one each, and one for the winner. */
export const minimumAbAudience = (variantCount: number) => variantCount + 1;

export type VariantResult = { id: string; delivered: number; opened: number; clicked: number };

/** A variant's unique rate of the metric among its delivered messages; 0 when none was delivered. */
export function metricRate(result: VariantResult, metric: AbMetric): number {
  if (result.delivered <= 0) return 0;
  return (metric === 'opens' ? result.opened : result.clicked) / result.delivered;
}

/**
 * The winner: the highest unique rate of the metric among delivered messages; ties (all zero
 * included) go to the first variant in the campaign's order.
 */
export function pickWinner(variants: { id: string }[], results: VariantResult[], metric: AbMetric): string {
  const byId = new Map(results.map((result) => [result.id, result]));
  let best = variants[0].id;
  let bestRate = -1;
  for (const variant of variants) {
    const found = byId.get(variant.id) ?? { id: variant.id, delivered: 0, opened: 0, clicked: 0 };
    const rate = metricRate(found, metric);
    if (rate > bestRate) {
      best = variant.id;
      bestRate = rate;
    }
  }
  return best;
}
