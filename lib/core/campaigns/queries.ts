import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { campaigns } from '@/lib/db/schema';
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

/**
 * The status conflict of the service spec: deterministic, so an Idempotency-Key stores and replays
 * it; it carries neither idempotency header (no Retry-After: waiting does not change a campaign's state).
 */
export const campaignStatusConflict = (row: CampaignRow, action: string, allowed: string) =>
  conflict(`the campaign is ${row.status}: ${action} only ${allowed}`, 'status');

/** Counts from the campaign's messages and its audience snapshot, in one round trip. */
export async function countCampaign(db: DbOrTx, row: CampaignRow): Promise<CampaignCounts | null> {
  if (row.recipientCount === null) return null;
  const result = await db.execute(sql`
    select
      (select count(*) from messages where campaign_id = ${row.id} and account_id = ${row.accountId}) as queued,
      (select count(*) from messages where campaign_id = ${row.id} and account_id = ${row.accountId} and status = 'delivered') as delivered,
      (select count(*) from messages where campaign_id = ${row.id} and account_id = ${row.accountId} and open_count > 0) as opened,
      (select count(*) from messages where campaign_id = ${row.id} and account_id = ${row.accountId} and click_count > 0) as clicked,
      (select count(*) from messages where campaign_id = ${row.id} and account_id = ${row.accountId} and status = 'bounced') as bounced,
      (select count(distinct e.message_id) from events e join messages m on m.id = e.message_id
        where m.campaign_id = ${row.id} and m.account_id = ${row.accountId} and e.type = 'message.complained') as complained,
      (select count(*) from campaign_recipients where campaign_id = ${row.id} and unsubscribed_at is not null) as unsubscribed
  `);
  const counts = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  const number = (key: string) => Number(counts[key] ?? 0);
  return {
    recipients: row.recipientCount,
    queued: number('queued'),
    delivered: number('delivered'),
    opened: number('opened'),
    clicked: number('clicked'),
    bounced: number('bounced'),
    complained: number('complained'),
    unsubscribed: number('unsubscribed'),
  };
}
