import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';
import type { DbOrTx } from '@/lib/db/client';
import {
  recipientDomainProviders,
  statsByTagDaily,
  statsByTagHourly,
  statsDaily,
  statsHourly,
  type RollupCounter,
} from '@/lib/db/schema';
import type { Bucket, RollupRanges, TimeWindow } from './time-window';

/** Which rows count: null means no condition on that dimension. */
export type RollupFilters = {
  accountId: string;
  senderDomains: string[] | null;
  recipientDomains: string[] | null;
  tags: string[] | null;
  /** Recipient domains classified as this provider (recipient_domain_providers); other: every unclassified one too. */
  provider?: MailboxProvider | null;
};

/** One bucket's sums, and (when asked) some of them per recipient domain, for the domains where `nonZero` is not 0. */
export type RollupSums<C extends RollupCounter, D extends C = never> = {
  bucket: number;
  sums: Record<C, number>;
  byRecipientDomain: { recipientDomain: string; sums: Record<D, number> }[];
};

type Source = { table: PgTable; time: PgColumn; columns: Record<string, PgColumn> };

const source = (table: PgTable, time: PgColumn): Source => ({
  table,
  time,
  columns: table as unknown as Record<string, PgColumn>,
});

/**
 * Sums of rollup counters per bucket (and some of them per recipient domain when asked), from the
 * daily rows for whole days and the hourly rows for the rest (added, or subtracted from a day read
 * whole; see rollupRanges), in one statement. Buckets are found with `width_bucket` over their start
 * times, so any alignment works; bucket numbers start at 0. Buckets without rows are left out.
 */
/**
 * The signed selects whose union is a window's sums: whole days from the daily table, plus the
 * hours around them, minus the hours of a partial day (see time-window.ts). Tags pick the tag tables.
 */
export function rollupParts(ranges: RollupRanges, filters: RollupFilters, counters: readonly RollupCounter[]): SQL[] {
  const tagged = filters.tags !== null;
  const daily = tagged ? source(statsByTagDaily, statsByTagDaily.day) : source(statsDaily, statsDaily.day);
  const hourly = tagged ? source(statsByTagHourly, statsByTagHourly.hour) : source(statsHourly, statsHourly.hour);
  const within = (time: PgColumn, spans: TimeWindow[]) =>
    sql`(${sql.join(
      spans.map(
        (range) =>
          sql`(${time} >= ${range.from.toISOString()}::timestamptz and ${time} < ${range.to.toISOString()}::timestamptz)`,
      ),
      sql` or `,
    )})`;
  const parts: SQL[] = [];
  if (ranges.days) parts.push(select(daily, filters, counters, within(daily.time, [ranges.days]), 1));
  if (ranges.hours.length) parts.push(select(hourly, filters, counters, within(hourly.time, ranges.hours), 1));
  if (ranges.lessHours.length) parts.push(select(hourly, filters, counters, within(hourly.time, ranges.lessHours), -1));
  return parts;
}

export async function sumRollups<C extends RollupCounter, D extends C = never>(
  db: DbOrTx,
  options: {
    ranges: RollupRanges;
    buckets: Bucket[];
    filters: RollupFilters;
    counters: readonly C[];
    byRecipientDomain?: { counters: readonly D[]; nonZero: D };
  },
): Promise<RollupSums<C, D>[]> {
  const { ranges, buckets, filters, counters } = options;
  const parts = rollupParts(ranges, filters, counters);
  if (parts.length === 0) return [];

  const thresholds = sql`${sql.param(buckets.map((bucket) => bucket.from.toISOString()))}::timestamptz[]`;
  const column = (index: number) => sql.raw(`c${index}`);
  const sums = counters.map((_, index) => sql`coalesce(sum(${column(index)}), 0)::float8 as ${column(index)}`);
  // A day read whole for a window starting inside it has its row (and the hours subtracted from it)
  // before the first bucket's start: they belong to the first bucket.
  const bucketOf = sql`greatest(width_bucket(s.t, ${thresholds}), 1)`;
  const rowsOf = sql`(${sql.join(parts, sql` union all `)}) as s`;
  const perDomain = options.byRecipientDomain;
  let statement: SQL;
  if (!perDomain) {
    statement = sql`select ${bucketOf} as b, ${sql.join(sums, sql`, `)} from ${rowsOf} group by b`;
  } else {
    // Per bucket and domain first, then one row per bucket with its domains as JSON: thousands of
    // small rows cost PGlite more to hand over than the query costs to run.
    const byDomain = sql`select ${bucketOf} as b, s.recipient_domain, ${sql.join(
      counters.map((_, index) => sql`sum(${column(index)}) as ${column(index)}`),
      sql`, `,
    )} from ${rowsOf} group by b, s.recipient_domain`;
    const domainValues = perDomain.counters.map((counter) => column(counters.indexOf(counter)));
    const domains = sql`coalesce(json_agg(json_build_array(g.recipient_domain, ${sql.join(domainValues, sql`, `)})) filter (where ${column(counters.indexOf(perDomain.nonZero))} <> 0), '[]')::text as domains`;
    statement = sql`select b, ${sql.join(sums, sql`, `)}, ${domains} from (${byDomain}) as g group by b`;
  }
  const result = await db.execute(statement);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((row) => ({
    bucket: Number(row.b) - 1,
    sums: Object.fromEntries(counters.map((counter, index) => [counter, Number(row[`c${index}`])])) as Record<
      C,
      number
    >,
    byRecipientDomain: perDomain
      ? (JSON.parse(String(row.domains)) as [string, ...number[]][]).map(([recipientDomain, ...values]) => ({
          recipientDomain,
          sums: Object.fromEntries(
            perDomain.counters.map((counter, index) => [counter, Number(values[index])]),
          ) as Record<D, number>,
        }))
      : [],
  }));
}

/** The rows of one table for the filters and times, with their counters negated when `sign` is -1. */
export function select(
  from: Source,
  filters: RollupFilters,
  counters: readonly RollupCounter[],
  timeRange: SQL,
  sign: 1 | -1,
): SQL {
  const { columns } = from;
  const conditions: SQL[] = [sql`${columns.accountId} = ${filters.accountId}`, timeRange];
  if (filters.senderDomains)
    conditions.push(sql`${columns.senderDomain} = any(${sql.param(filters.senderDomains)}::text[])`);
  if (filters.recipientDomains)
    conditions.push(sql`${columns.recipientDomain} = any(${sql.param(filters.recipientDomains)}::text[])`);
  if (filters.provider) {
    const providers = recipientDomainProviders;
    conditions.push(
      filters.provider === 'other'
        ? sql`${columns.recipientDomain} not in (select ${providers.domain} from ${providers} where ${providers.provider} <> 'other')`
        : sql`${columns.recipientDomain} in (select ${providers.domain} from ${providers} where ${providers.provider} = ${filters.provider})`,
    );
  }
  if (filters.tags) {
    conditions.push(sql`${columns.tag} = any(${sql.param(filters.tags)}::text[])`);
    // A tag set holding several of the requested tags counts once: under the first of them.
    if (filters.tags.length > 1)
      conditions.push(
        sql`${columns.tag} = (select min(x) from unnest(${columns.tags}) as x where x = any(${sql.param(filters.tags)}::text[]))`,
      );
  }
  const values = counters.map(
    (counter, index) => sql`${sign === -1 ? sql`-${columns[counter]}` : columns[counter]} as ${sql.raw(`c${index}`)}`,
  );
  return sql`select ${from.time} as t, ${columns.recipientDomain} as recipient_domain, ${sql.join(values, sql`, `)} from ${from.table} where ${sql.join(conditions, sql` and `)}`;
}
