import { sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import type { CampaignRow } from './present';
import { getCampaignInAccount } from './queries';
import { campaignPathSchema } from './schemas';

/** The most recent bounced and unsubscribed recipients the report lists (the totals are in /stats). */
export const REPORT_PEOPLE_LIMIT = 100;
const TOP_LINKS = 20;
/** Hourly points beyond a fortnight are too many to read; longer reports count per day. */
const MAX_HOURLY_POINTS = 14 * 24;
const HOUR_MS = 3_600_000;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;
const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/**
 * What the campaign report draws beyond /stats: opens and clicks over time since sending started,
 * the most clicked links, and who bounced or unsubscribed (latest first). Every query names the
 * account as well as the campaign.
 */
export const getCampaignReport = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run({ db, principal, now }, input) {
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    if (!row.startedAt) return { object: 'campaign_report' as const, campaign_id: row.id, interval: 'hour' as const, engagement: [], links: [], bounces: [], unsubscribes: [] };
    const [engagement, links, bounces, unsubscribes] = await Promise.all([engagementOverTime(db, row, now()), topLinks(db, row), latestBounces(db, row), latestUnsubscribes(db, row)]);
    return { object: 'campaign_report' as const, campaign_id: row.id, ...engagement, links, bounces, unsubscribes };
  },
});

async function engagementOverTime(db: DbOrTx, row: CampaignRow, at: Date) {
  const started = row.startedAt!;
  const rows = rowsOf<{ bucket: unknown; opens: string | number; clicks: string | number }>(
    await db.execute(sql`
      select date_trunc('hour', e.created_at) as bucket,
        count(*) filter (where e.type = 'message.opened') as opens,
        count(*) filter (where e.type = 'message.clicked') as clicks
      from events e join messages m on m.id = e.message_id
      where e.account_id = ${row.accountId} and m.account_id = ${row.accountId} and m.campaign_id = ${row.id}
        and e.type in ('message.opened', 'message.clicked') and e.created_at >= ${started.toISOString()}
      group by 1`),
  );
  const byHour = new Map(rows.map((point) => [new Date(iso(point.bucket)).getTime(), { opens: Number(point.opens), clicks: Number(point.clicks) }]));
  // Dense from the start to the latest of now (while it may still be read) and the last event.
  const first = Math.floor(started.getTime() / HOUR_MS) * HOUR_MS;
  const last = Math.max(first, ...byHour.keys(), Math.floor(Math.min(at.getTime(), first + MAX_HOURLY_POINTS * HOUR_MS) / HOUR_MS) * HOUR_MS);
  const isDaily = (last - first) / HOUR_MS >= MAX_HOURLY_POINTS;
  const step = isDaily ? 24 * HOUR_MS : HOUR_MS;
  const points = new Map<number, { opens: number; clicks: number }>();
  for (let time = first; time <= last; time += step) points.set(time, { opens: 0, clicks: 0 });
  for (const [hour, counts] of byHour) {
    const key = first + Math.floor((hour - first) / step) * step;
    const point = points.get(key) ?? { opens: 0, clicks: 0 };
    points.set(key, { opens: point.opens + counts.opens, clicks: point.clicks + counts.clicks });
  }
  return { interval: isDaily ? ('day' as const) : ('hour' as const), engagement: [...points].map(([time, counts]) => ({ at: new Date(time).toISOString(), ...counts })) };
}

async function topLinks(db: DbOrTx, row: CampaignRow) {
  const rows = rowsOf<{ url: string; unique_clickers: string | number; clicks: string | number }>(
    await db.execute(sql`
      select e.payload->>'url' as url, count(distinct e.message_id) as unique_clickers, count(*) as clicks
      from events e join messages m on m.id = e.message_id
      where e.account_id = ${row.accountId} and m.account_id = ${row.accountId} and m.campaign_id = ${row.id}
        and e.type = 'message.clicked' and e.payload->>'url' is not null
      group by 1 order by clicks desc, url limit ${TOP_LINKS}`),
  );
  return rows.map((link) => ({ url: link.url, unique_clickers: Number(link.unique_clickers), clicks: Number(link.clicks) }));
}

async function latestBounces(db: DbOrTx, row: CampaignRow) {
  const rows = rowsOf<{ email: string; contact_id: string | null; at: unknown; bounce_classification: string | null }>(
    await db.execute(sql`
      select m.recipient as email, m.contact_id, m.bounce_classification,
        coalesce((select max(e.created_at) from events e where e.message_id = m.id and e.account_id = ${row.accountId} and e.type = 'message.bounced'), m.updated_at) as at
      from messages m
      where m.account_id = ${row.accountId} and m.campaign_id = ${row.id} and m.status = 'bounced'
      order by at desc limit ${REPORT_PEOPLE_LIMIT}`),
  );
  return rows.map((bounce) => ({ email: bounce.email, contact_id: bounce.contact_id, at: iso(bounce.at), bounce_classification: bounce.bounce_classification }));
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

export type CampaignReport = Awaited<ReturnType<typeof getCampaignReport>>;
