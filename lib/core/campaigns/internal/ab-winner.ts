import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { campaigns } from '@/lib/db/schema';
import { CampaignTally, VARIANT_COUNTERS } from '../campaign-counters';
import type { CampaignRow } from './present';

type Row = Record<string, unknown>;
export type VariantCounters = Record<(typeof VARIANT_COUNTERS)[number], number>;

/** An A/B campaign's counters per variant, summed over their writers' rows: a few rows, whatever the audience. */
export async function readVariantCounters(
  db: DbOrTx,
  campaign: { id: string; accountId: string },
): Promise<Map<string, VariantCounters>> {
  const sums = sql.raw(VARIANT_COUNTERS.map((name) => `coalesce(sum(${name}), 0)::int as ${name}`).join(', '));
  const result = await db.execute(sql`select variant_id, ${sums} from campaign_variant_counters
    where account_id = ${campaign.accountId} and campaign_id = ${campaign.id} group by variant_id`);
  const found = new Map<string, VariantCounters>();
  for (const row of (result as unknown as { rows: Row[] }).rows)
    found.set(
      String(row.variant_id),
      Object.fromEntries(VARIANT_COUNTERS.map((name) => [name, Number(row[name] ?? 0)])) as VariantCounters,
    );
  return found;
}

/**
 * waiting -> winner_sent with the winner, in the caller's transaction (which holds the campaign's
 * row lock): the phase and the winner commit together, and the cursor starts over for the rest of
 * the audience, who count as the winner's recipients from now.
 */
export async function settleWinner(tx: DbOrTx, row: CampaignRow, winnerId: string, at: Date): Promise<void> {
  const counters = await readVariantCounters(tx, row);
  const tested = [...counters.values()].reduce((sum, variant) => sum + variant.recipients, 0);
  const tally = new CampaignTally();
  tally.addVariantRecipients(
    { campaignId: row.id, accountId: row.accountId },
    winnerId,
    (row.recipientCount ?? 0) - tested,
  );
  await tally.flush(tx);
  await tx
    .update(campaigns)
    .set({ abPhase: 'winner_sent', winnerVariantId: winnerId, queuedThrough: null, updatedAt: at })
    .where(eq(campaigns.id, row.id));
}
