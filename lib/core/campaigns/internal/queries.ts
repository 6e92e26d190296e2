import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, campaigns, domains } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { CAMPAIGN_COUNTERS, readCampaignCounters, type CampaignTotals } from '../campaign-counters';
import type { CampaignCounts, CampaignRow } from './present';

/** A campaign of the account, or 404; `forUpdate` locks the row, which serialises every state change. */
export async function getCampaignInAccount(
  db: DbOrTx,
  accountId: string,
  campaignId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CampaignRow> {
  if (!isUuid(campaignId)) throw notFound('campaign not found');
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, campaignId.toLowerCase())))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('campaign not found');
  return row;
}

/** The live domain (with its account) of the campaign's sender address, whatever its state; null if none. */
export async function campaignSenderDomain(db: DbOrTx, row: CampaignRow) {
  if (!row.fromEmail) return null;
  const name = row.fromEmail.slice(row.fromEmail.lastIndexOf('@') + 1);
  const [found] = await db
    .select({ domain: domains, account: accounts })
    .from(domains)
    .innerJoin(accounts, eq(accounts.id, domains.accountId))
    .where(and(eq(domains.accountId, row.accountId), eq(domains.domain, name), isNull(domains.deletedAt)))
    .limit(1);
  return found ? { name, ...found } : { name, domain: null, account: null };
}

/**
 * The status conflict of the service spec: deterministic, so an Idempotency-Key stores and replays
 * it; it carries neither idempotency header (no Retry-After: waiting does not change a campaign's state).
 */
export const campaignStatusConflict = (row: CampaignRow, action: string, allowed: string) =>
  conflict(`the campaign is ${row.status}: ${action} only ${allowed}`, 'status');

/**
 * Counts of started campaigns (none for the others), from the counters kept as their events happen
 * (campaign-counters.ts): one read a page, whatever the audience. `waiting` is what is queued and
 * has no outcome yet, so the parts add up to `queued` (after a cancel, `cancelled` also counts the
 * recipients never queued).
 */
export async function countCampaigns(db: DbOrTx, rows: CampaignRow[]): Promise<Map<string, CampaignCounts>> {
  const started = rows.filter((row) => row.recipientCount !== null);
  const counts = new Map<string, CampaignCounts>();
  if (started.length === 0) return counts;
  const totals = await readCampaignCounters(
    db,
    started[0].accountId,
    started.map((row) => row.id),
  );
  for (const row of started) {
    const found = totals.get(row.id) ?? NO_TOTALS;
    const settled = found.delivered + found.bounced + found.failed + found.suppressed + found.cancelled;
    counts.set(row.id, {
      recipients: row.recipientCount!,
      queued: row.queuedCount,
      waiting: Math.max(0, row.queuedCount - settled - found.deferred),
      ...found,
    });
  }
  return counts;
}

const NO_TOTALS = Object.fromEntries(CAMPAIGN_COUNTERS.map((counter) => [counter, 0])) as CampaignTotals;
export const NO_COUNTS: CampaignCounts = { recipients: 0, queued: 0, waiting: 0, ...NO_TOTALS };

/** One campaign's counts, or null before sending starts. */
export async function countCampaign(db: DbOrTx, row: CampaignRow): Promise<CampaignCounts | null> {
  return (await countCampaigns(db, [row])).get(row.id) ?? null;
}
