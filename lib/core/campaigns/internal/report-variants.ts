import type { DbOrTx } from '@/lib/db/client';
import { metricRate } from '../ab-test-rules';
import { isAbCampaign } from './ab-test';
import { readVariantCounters } from './ab-winner';
import type { CampaignRow } from './present';

const rounded = (rate: number) => Math.round(rate * 10_000) / 10_000;

/** The report's `variants`: an A/B campaign's totals per variant, in the campaign's order, from their counters. */
export async function reportVariants(db: DbOrTx, row: CampaignRow) {
  if (!isAbCampaign(row)) return [];
  const counters = await readVariantCounters(db, row);
  return row.variants.map((variant) => {
    const found = counters.get(variant.id);
    const n = (name: keyof NonNullable<typeof found>) => found?.[name] ?? 0;
    const results = { id: variant.id, delivered: n('delivered'), opened: n('opened'), clicked: n('clicked') };
    return {
      id: variant.id,
      name: variant.name,
      is_winner: row.winnerVariantId === variant.id,
      recipients: n('recipients'),
      delivered: n('delivered'),
      deferred: n('deferred'),
      bounced: n('bounced'),
      failed: n('failed'),
      cancelled: n('cancelled'),
      opened: n('total_opens'),
      unique_opened: n('opened'),
      clicked: n('total_clicks'),
      unique_clicked: n('clicked'),
      unsubscribed: n('unsubscribed'),
      complained: n('complained'),
      open_rate: rounded(metricRate(results, 'opens')),
      click_rate: rounded(metricRate(results, 'clicks')),
    };
  });
}
