import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, campaigns, domains } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { CampaignCounts, CampaignRow } from './present';

/** A campaign of the account, or 404; `forUpdate` locks the row, which serialises every state change. */
export async function getCampaignInAccount(db: DbOrTx, accountId: string, campaignId: string, options: { forUpdate?: boolean } = {}): Promise<CampaignRow> {
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
 * Counts of started campaigns (none for the others), from messages and snapshots, one round trip a page.
 * Per campaign, not grouped: grouped, a sending campaign's rows were sorted on disk (stale statistics).
 * Complaints are `complained_at`, set with the one `message.complained` event (joining events: 190 ms per 100,000).
 */
export async function countCampaigns(db: DbOrTx, rows: CampaignRow[]): Promise<Map<string, CampaignCounts>> {
  const started = rows.filter((row) => row.recipientCount !== null);
  const counts = new Map<string, CampaignCounts>();
  if (started.length === 0) return counts;
  const accountId = started[0].accountId;
  const ids = sql`${sql.param(started.map((row) => row.id))}::uuid[]`;
  const result = await db.execute(sql`
    select c.id, m.queued, m.delivered, m.opened, m.clicked, m.bounced, m.complained, coalesce(u.unsubscribed, 0) as unsubscribed
    from unnest(${ids}) as c(id)
    cross join lateral (
      select count(*) as queued, count(*) filter (where status = 'delivered') as delivered,
        count(*) filter (where open_count > 0) as opened, count(*) filter (where click_count > 0) as clicked,
        count(*) filter (where status = 'bounced') as bounced, count(*) filter (where complained_at is not null) as complained
      from messages where account_id = ${accountId} and campaign_id = c.id
    ) m
    left join (
      select campaign_id, count(*) as unsubscribed from campaign_recipients
      where account_id = ${accountId} and campaign_id = any(${ids}) and unsubscribed_at is not null group by campaign_id
    ) u on u.campaign_id = c.id`);
  const recipients = new Map(started.map((row) => [row.id, row.recipientCount!]));
  for (const found of (result as unknown as { rows: Record<string, unknown>[] }).rows) {
    const id = String(found.id);
    counts.set(id, {
      recipients: recipients.get(id)!,
      queued: Number(found.queued),
      delivered: Number(found.delivered),
      opened: Number(found.opened),
      clicked: Number(found.clicked),
      bounced: Number(found.bounced),
      complained: Number(found.complained),
      unsubscribed: Number(found.unsubscribed),
    });
  }
  return counts;
}

export const NO_COUNTS: CampaignCounts = { recipients: 0, queued: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0, unsubscribed: 0 };

/** One campaign's counts, or null before sending starts. */
export async function countCampaign(db: DbOrTx, row: CampaignRow): Promise<CampaignCounts | null> {
  return (await countCampaigns(db, [row])).get(row.id) ?? null;
}
