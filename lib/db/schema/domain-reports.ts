import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn } from './columns';
import { domains } from './domains';

/**
 * DMARC aggregate (RFC 7489) and TLS (RFC 8460) reports our MX received for a domain. A refused
 * report is a row too (`status` 'rejected', with its reason), so people see what was thrown away.
 * A stored report is kept once per domain, kind, reporter and report id: a re-sent one adds nothing.
 */
export const domainReports = pgTable(
  'domain_reports',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id),
    // 'dmarc' | 'tls'
    kind: text('kind').notNull(),
    // 'stored' | 'rejected'
    status: text('status').notNull(),
    reporterOrg: text('reporter_org'),
    reporterEmail: text('reporter_email'),
    reportId: text('report_id'),
    policyDomain: text('policy_domain'),
    beginsAt: timestampColumn('begins_at'),
    endsAt: timestampColumn('ends_at'),
    // dmarc: the published policy the reporter saw; tls: the per-policy results.
    policy: jsonb('policy').$type<unknown>(),
    messageCount: integer('message_count').notNull().default(0),
    failureCount: integer('failure_count').notNull().default(0),
    rejectionReason: text('rejection_reason'),
    byteSize: integer('byte_size').notNull().default(0),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('domain_reports_once_idx')
      .on(table.domainId, table.kind, table.reporterOrg, table.reportId)
      .where(sql`${table.status} = 'stored'`),
    index('domain_reports_list_idx').on(table.domainId, table.kind, table.id),
  ],
);

/** One `<record>` of a DMARC aggregate report: a sending IP, how many messages, and how they fared. */
export const dmarcReportSources = pgTable(
  'dmarc_report_sources',
  {
    id: id(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => domainReports.id, { onDelete: 'cascade' }),
    domainId: uuid('domain_id').notNull(),
    beginsAt: timestamp('begins_at', { withTimezone: true, mode: 'date' }).notNull(),
    sourceIp: text('source_ip').notNull(),
    messageCount: integer('message_count').notNull(),
    disposition: text('disposition').notNull(),
    headerFrom: text('header_from'),
    dkimAligned: boolean('dkim_aligned').notNull(),
    spfAligned: boolean('spf_aligned').notNull(),
    dkimResult: text('dkim_result'),
    dkimDomain: text('dkim_domain'),
    spfResult: text('spf_result'),
    spfDomain: text('spf_domain'),
  },
  (table) => [
    index('dmarc_report_sources_report_idx').on(table.reportId),
    index('dmarc_report_sources_domain_idx').on(table.domainId, table.beginsAt),
  ],
);
