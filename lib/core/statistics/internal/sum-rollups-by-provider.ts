import { sql } from 'drizzle-orm';
import { MAILBOX_PROVIDERS, type MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';
import type { DbOrTx } from '@/lib/db/client';
import { recipientDomainProviders, type RollupCounter } from '@/lib/db/schema';
import { rollupParts, type RollupFilters } from './sum-rollups';
import type { RollupRanges } from './time-window';

/**
 * Sums of rollup counters over the whole window per mailbox provider, in one statement: the counter
 * rows are keyed by recipient domain, and each domain's provider is its recipient_domain_providers
 * row (other when delivery has not resolved it). Every provider is in the answer, zeros included.
 */
export async function sumRollupsByProvider<C extends RollupCounter>(
  db: DbOrTx,
  options: { ranges: RollupRanges; filters: RollupFilters; counters: readonly C[] },
): Promise<Record<MailboxProvider, Record<C, number>>> {
  const { ranges, filters, counters } = options;
  const parts = rollupParts(ranges, filters, counters);
  const result = Object.fromEntries(
    MAILBOX_PROVIDERS.map((provider) => [provider, Object.fromEntries(counters.map((counter) => [counter, 0]))]),
  ) as Record<MailboxProvider, Record<C, number>>;
  if (parts.length === 0) return result;
  const sums = counters.map(
    (_, index) => sql`coalesce(sum(${sql.raw(`s.c${index}`)}), 0)::float8 as ${sql.raw(`c${index}`)}`,
  );
  const providers = recipientDomainProviders;
  const rows = (
    (await db.execute(
      sql`select coalesce(p.provider, 'other') as provider, ${sql.join(sums, sql`, `)} from (${sql.join(parts, sql` union all `)}) as s left join ${providers} as p on p.domain = s.recipient_domain group by 1`,
    )) as unknown as { rows: Record<string, unknown>[] }
  ).rows;
  for (const row of rows) {
    const provider = (MAILBOX_PROVIDERS as readonly string[]).includes(String(row.provider))
      ? (row.provider as MailboxProvider)
      : 'other';
    counters.forEach((counter, index) => {
      result[provider][counter] += Number(row[`c${index}`]);
    });
  }
  return result;
}
