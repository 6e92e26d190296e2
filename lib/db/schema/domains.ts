import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/** One day of a custom warm-up plan: a provider's limit, or null/missing for no limit. */
export type WarmupDayLimits = Partial<Record<'gmail' | 'microsoft' | 'yahoo' | 'apple' | 'other', number | null>>;

/** The last DNS check of one record, keyed by record (see lib/core/domains/internal/dns-records.ts). */
export type DnsRecordCheck = {
  propagated: boolean;
  /** What DNS answered (joined TXT strings, CNAME targets, MX hosts); null when nothing was found. */
  found: string[] | null;
  /** Why the last lookup could not decide (SERVFAIL, timeout); the previous verdict was kept. */
  error: string | null;
  /** True once this record has ever verified: custom subdomains and the DKIM selector lock then. */
  hasVerified: boolean;
  checkedAt: string;
};

/**
 * Sending domains. Deletion is soft (`deleted_at`): messages and events keep pointing at the row,
 * and the same name can be added again.
 */
export const domains = pgTable(
  'domains',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    // Lowercase A-label form, no trailing dot.
    domain: text('domain').notNull(),
    sendingType: text('sending_type').notNull().default('transactional'),
    trackingSubdomain: text('tracking_subdomain'),
    returnPathSubdomain: text('return_path_subdomain'),
    subscriptionSubdomain: text('subscription_subdomain'),
    mediaSubdomain: text('media_subdomain'),
    // The partner's configured selector override (null: Mailstead picks the selectors).
    dkimSelector: text('dkim_selector'),
    dsnRecipient: text('dsn_recipient'),
    dnsValid: boolean('dns_valid').notNull().default(false),
    dnsChecks: jsonb('dns_checks')
      .$type<Record<string, DnsRecordCheck>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    lastDnsCheckAt: timestampColumn('last_dns_check_at'),
    isPaused: boolean('is_paused').notNull().default(false),
    pausedAt: timestampColumn('paused_at'),
    pauseReason: text('pause_reason'),
    // Bounce-rate pauses count outcomes from here (set when the domain is unpaused).
    pauseWindowStartedAt: timestampColumn('pause_window_started_at'),
    // DMARC/TLS reports to our MX: the token of `dmarc-<token>@MAIL_HOSTNAME`, kept when turned off.
    reportsEnabled: boolean('reports_enabled').notNull().default(false),
    reportsToken: text('reports_token'),
    // Warm-up (lib/core/domains/internal/warmup-plan.ts): a null plan is the default ramp; day 1 is started_at's UTC day.
    warmupEnabled: boolean('warmup_enabled').notNull().default(false),
    warmupPlan: jsonb('warmup_plan').$type<WarmupDayLimits[]>(),
    warmupStartedAt: timestampColumn('warmup_started_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestampColumn('deleted_at'),
  },
  (table) => [
    uniqueIndex('domains_account_domain_live_idx')
      .on(table.accountId, table.domain)
      .where(sql`${table.deletedAt} is null`),
    index('domains_domain_idx').on(table.domain),
    index('domains_account_idx').on(table.accountId, table.id),
    uniqueIndex('domains_reports_token_idx')
      .on(table.reportsToken)
      .where(sql`${table.reportsToken} is not null`),
  ],
);

/**
 * DKIM keys of a domain: one active (signs mail), one standby (published ahead of a rotation), and
 * retired ones. Selectors are unique within the domain; private keys are encrypted at rest.
 */
export const dkimKeys = pgTable(
  'dkim_keys',
  {
    id: id(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id),
    selector: text('selector').notNull(),
    // 'active' | 'standby' | 'retired'
    status: text('status').notNull(),
    privateKeyEncrypted: text('private_key_encrypted').notNull(),
    // Base64 of the DER SubjectPublicKeyInfo: the `p=` of the DNS record.
    publicKey: text('public_key').notNull(),
    keyBits: integer('key_bits').notNull(),
    isCustomerProvided: boolean('is_customer_provided').notNull().default(false),
    createdAt: createdAt(),
    activatedAt: timestampColumn('activated_at'),
    retiredAt: timestampColumn('retired_at'),
  },
  (table) => [
    uniqueIndex('dkim_keys_domain_selector_idx').on(table.domainId, table.selector),
    index('dkim_keys_domain_status_idx').on(table.domainId, table.status),
  ],
);
