import { sql } from 'drizzle-orm';
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestampColumn } from './columns';

/*
 * The mailbox provider behind each recipient domain, from its MX hosts when delivery last resolved
 * them (re-checked after a TTL). Not per account: an MX record is public. Statistics read a
 * provider as the set of recipient domains it receives for, so counters need no provider key.
 */
export const recipientDomainProviders = pgTable(
  'recipient_domain_providers',
  {
    domain: text('domain').primaryKey(),
    provider: text('provider').notNull(),
    mxHosts: text('mx_hosts')
      .array()
      .notNull()
      .default(sql`'{}'`),
    checkedAt: timestampColumn('checked_at')
      .notNull()
      .default(sql`now()`),
  },
  (table) => [index('recipient_domain_providers_provider_idx').on(table.provider, table.domain)],
);
