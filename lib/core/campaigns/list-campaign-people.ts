import { sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import type { CampaignRow } from './internal/present';
import { getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

/** The most recent bounced and unsubscribed recipients the report lists (the totals are in the report). */
export const REPORT_PEOPLE_LIMIT = 100;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;
const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/**
 * Who bounced or unsubscribed (latest first), for the dashboard's report; the numbers are in the v2
 * report. Each is an indexed read of those recipients only. Every query names the account.
 */
export const listCampaignPeople = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run({ db, principal }, input) {
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    if (!row.startedAt)
      return { object: 'campaign_people' as const, campaign_id: row.id, bounces: [], unsubscribes: [] };
    const [bounces, unsubscribes] = await Promise.all([latestBounces(db, row), latestUnsubscribes(db, row)]);
    return { object: 'campaign_people' as const, campaign_id: row.id, bounces, unsubscribes };
  },
});

async function latestBounces(db: DbOrTx, row: CampaignRow) {
  const rows = rowsOf<{ email: string; contact_id: string | null; at: unknown; bounce_classification: string | null }>(
    await db.execute(sql`
      select m.recipient as email, m.contact_id, m.bounce_classification,
        coalesce((select max(e.created_at) from events e where e.message_id = m.id and e.account_id = ${row.accountId} and e.type = 'message.bounced'), m.updated_at) as at
      from (
        select * from messages
        where account_id = ${row.accountId} and campaign_id = ${row.id} and status = 'bounced'
        order by updated_at desc limit ${REPORT_PEOPLE_LIMIT}
      ) m
      order by at desc`),
  );
  return rows.map((bounce) => ({
    email: bounce.email,
    contact_id: bounce.contact_id,
    at: iso(bounce.at),
    bounce_classification: bounce.bounce_classification,
  }));
}

async function latestUnsubscribes(db: DbOrTx, row: CampaignRow) {
  const rows = rowsOf<{ email: string; contact_id: string; at: unknown }>(
    await db.execute(sql`
      select email, contact_id, unsubscribed_at as at from campaign_recipients
      where account_id = ${row.accountId} and campaign_id = ${row.id} and unsubscribed_at is not null
      order by unsubscribed_at desc limit ${REPORT_PEOPLE_LIMIT}`),
  );
  return rows.map((person) => ({ email: person.email, contact_id: person.contact_id, at: iso(person.at) }));
}

export type CampaignPeople = Awaited<ReturnType<typeof listCampaignPeople>>;
