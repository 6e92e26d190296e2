import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { ENGAGEMENT_TOTALS, HOUR_COUNTERS, LINK_COUNTERS, PROVIDER_COUNTERS } from '../campaign-counters';
import { MAILBOX_PROVIDERS, type MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';

/** The links a report lists: personalised URLs could make one per recipient. */
export const REPORT_LINKS_LIMIT = 100;

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const sums = (names: readonly string[]) =>
  sql.raw(names.map((name) => `coalesce(sum(${name}), 0)::int as ${name}`).join(', '));
const numbers = <K extends string>(row: Row | undefined, names: readonly K[]) =>
  Object.fromEntries(names.map((name) => [name, Number(row?.[name] ?? 0)])) as Record<K, number>;

/**
 * The report's counters of one campaign, each summed over its writers' rows: a few rows per hour,
 * link and provider, whatever the audience. Every query names the account.
 */
export async function readReportCounters(db: DbOrTx, campaign: { id: string; accountId: string }) {
  const where = sql`account_id = ${campaign.accountId} and campaign_id = ${campaign.id}`;
  const [totals, hours, links, providers] = await Promise.all([
    db.execute(sql`select ${sums(ENGAGEMENT_TOTALS)} from campaign_counters where ${where}`),
    db.execute(
      sql`select hour, ${sums(HOUR_COUNTERS)} from campaign_hour_counters where ${where} group by hour order by hour`,
    ),
    db.execute(sql`select min(url) as url, ${sums(LINK_COUNTERS)} from campaign_link_counters where ${where}
      group by url_hash order by clicks desc, url limit ${REPORT_LINKS_LIMIT}`),
    db.execute(
      sql`select provider, ${sums(PROVIDER_COUNTERS)} from campaign_provider_counters where ${where} group by provider`,
    ),
  ]);
  const byProvider = new Map(rowsOf(providers).map((row) => [String(row.provider), row]));
  return {
    engagement: numbers(rowsOf(totals)[0], ENGAGEMENT_TOTALS),
    hours: rowsOf(hours).map((row) => ({
      at: new Date(row.hour instanceof Date ? row.hour : String(row.hour)),
      ...numbers(row, HOUR_COUNTERS),
    })),
    links: rowsOf(links).map((row) => ({ url: String(row.url), ...numbers(row, LINK_COUNTERS) })),
    providers: MAILBOX_PROVIDERS.map((provider: MailboxProvider) => ({
      provider,
      ...numbers(byProvider.get(provider), PROVIDER_COUNTERS),
    })),
  };
}
