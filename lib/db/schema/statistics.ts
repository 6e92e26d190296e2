import { bigint, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestampColumn } from './columns';

/** Bounce classes (the KumoMTA-style names AhaSend uses): one counter column each in the rollups. */
export const BOUNCE_CLASSIFICATIONS = [
  'AuthenticationFailed',
  'BadDomain',
  'DNSFailure',
  'InactiveMailbox',
  'InvalidRecipient',
  'PolicyRelated',
  'ProtocolErrors',
  'QuotaIssues',
  'RoutingErrors',
  'TransientFailure',
  'Uncategorized',
] as const;

export type BounceClassification = (typeof BOUNCE_CLASSIFICATIONS)[number];

/** Upper bounds (seconds) of the delivery-time histogram's bins; the last bin is everything slower. */
export const DELIVERY_TIME_BOUNDS_SECONDS = [1, 5, 30, 60, 300, 1800, 7200] as const;

const count = (name: string) => integer(name).notNull().default(0);

/**
 * What every rollup row counts: outcomes, first opens and clicks, complaints, delivery time (sum, count and a
 * histogram of fixed bins), and bounces by classification. Integers: a row is one hour or one day.
 */
const counters = {
  reception: count('reception'),
  delivered: count('delivered'),
  deferred: count('deferred'),
  bounced: count('bounced'),
  failed: count('failed'),
  suppressed: count('suppressed'),
  opened: count('opened'),
  clicked: count('clicked'),
  // Complaint reports (ARF) received, counted when they arrive (a Mailstead extension).
  complained: count('complained'),
  // The measured bulk-sender rules (a Mailstead extension): deliveries over STARTTLS, and campaign
  // deliveries with and without a one-click unsubscribe (RFC 8058 List-Unsubscribe-Post). TLS is
  // counted both ways, so that deliveries from before it was recorded are in neither.
  deliveredTls: count('delivered_tls'),
  deliveredPlain: count('delivered_plain'),
  campaignDelivered: count('campaign_delivered'),
  campaignOneClick: count('campaign_one_click'),
  deliveryTimeSumMs: bigint('delivery_time_sum_ms', { mode: 'number' }).notNull().default(0),
  deliveryTimeCount: count('delivery_time_count'),
  deliveryTime0To1s: count('delivery_time_0_1s'),
  deliveryTime1To5s: count('delivery_time_1_5s'),
  deliveryTime5To30s: count('delivery_time_5_30s'),
  deliveryTime30To60s: count('delivery_time_30_60s'),
  deliveryTime1To5m: count('delivery_time_1_5m'),
  deliveryTime5To30m: count('delivery_time_5_30m'),
  deliveryTime30mTo2h: count('delivery_time_30m_2h'),
  deliveryTimeOver2h: count('delivery_time_over_2h'),
  bouncedAuthenticationFailed: count('bounced_authentication_failed'),
  bouncedBadDomain: count('bounced_bad_domain'),
  bouncedDnsFailure: count('bounced_dns_failure'),
  bouncedInactiveMailbox: count('bounced_inactive_mailbox'),
  bouncedInvalidRecipient: count('bounced_invalid_recipient'),
  bouncedPolicyRelated: count('bounced_policy_related'),
  bouncedProtocolErrors: count('bounced_protocol_errors'),
  bouncedQuotaIssues: count('bounced_quota_issues'),
  bouncedRoutingErrors: count('bounced_routing_errors'),
  bouncedTransientFailure: count('bounced_transient_failure'),
  bouncedUncategorized: count('bounced_uncategorized'),
};

export type RollupCounter = keyof typeof counters;

/** The histogram's columns, bin by bin in the order of DELIVERY_TIME_BOUNDS_SECONDS (then the rest). */
export const DELIVERY_TIME_COLUMNS = [
  'deliveryTime0To1s',
  'deliveryTime1To5s',
  'deliveryTime5To30s',
  'deliveryTime30To60s',
  'deliveryTime1To5m',
  'deliveryTime5To30m',
  'deliveryTime30mTo2h',
  'deliveryTimeOver2h',
] as const satisfies readonly RollupCounter[];

export const BOUNCE_COLUMN_OF: Record<BounceClassification, RollupCounter> = {
  AuthenticationFailed: 'bouncedAuthenticationFailed',
  BadDomain: 'bouncedBadDomain',
  DNSFailure: 'bouncedDnsFailure',
  InactiveMailbox: 'bouncedInactiveMailbox',
  InvalidRecipient: 'bouncedInvalidRecipient',
  PolicyRelated: 'bouncedPolicyRelated',
  ProtocolErrors: 'bouncedProtocolErrors',
  QuotaIssues: 'bouncedQuotaIssues',
  RoutingErrors: 'bouncedRoutingErrors',
  TransientFailure: 'bouncedTransientFailure',
  Uncategorized: 'bouncedUncategorized',
};

/*
 * Counters written with the events, so that statistics never scan messages: by UTC hour and by UTC
 * day (reports over weeks read days), each per sender and recipient domain.
 *
 * On PostgreSQL each writer counts in rows of its own (`writer`: delivery per process, each
 * acceptance in flight in a lane; lib/core/statistics/counter-writers.ts) and readers sum them: a counter
 * row is locked until its transaction commits, and API requests that shared rows with delivery's
 * outcome writes and with each other waited for those commits. The fold job sums the rows of ended
 * hours and days into one (writer -1); 0 is the shared rows (PGlite, and the rare writers).
 */
const writer = smallint('writer').notNull().default(0);
export const statsHourly = pgTable(
  'stats_hourly',
  {
    accountId: uuid('account_id').notNull(),
    hour: timestampColumn('hour').notNull(),
    senderDomain: text('sender_domain').notNull(),
    recipientDomain: text('recipient_domain').notNull(),
    writer,
    ...counters,
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.hour, table.senderDomain, table.recipientDomain, table.writer] }),
  ],
);

export const statsDaily = pgTable(
  'stats_daily',
  {
    accountId: uuid('account_id').notNull(),
    day: timestampColumn('day').notNull(),
    senderDomain: text('sender_domain').notNull(),
    recipientDomain: text('recipient_domain').notNull(),
    writer,
    ...counters,
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.senderDomain, table.recipientDomain, table.writer] }),
  ],
);

/*
 * Tagged messages again, once under each of their tags, with the whole (sorted) tag set alongside:
 * a filter on several tags reads only their rows (the key starts with the tag) and counts each tag
 * set under the first requested tag it holds, so a message with two of them is counted once.
 */
export const statsByTagHourly = pgTable(
  'stats_by_tag_hourly',
  {
    accountId: uuid('account_id').notNull(),
    tag: text('tag').notNull(),
    hour: timestampColumn('hour').notNull(),
    senderDomain: text('sender_domain').notNull(),
    recipientDomain: text('recipient_domain').notNull(),
    tags: text('tags').array().notNull(),
    writer,
    ...counters,
  },
  (table) => [
    primaryKey({
      columns: [
        table.accountId,
        table.tag,
        table.hour,
        table.senderDomain,
        table.recipientDomain,
        table.tags,
        table.writer,
      ],
    }),
  ],
);

export const statsByTagDaily = pgTable(
  'stats_by_tag_daily',
  {
    accountId: uuid('account_id').notNull(),
    tag: text('tag').notNull(),
    day: timestampColumn('day').notNull(),
    senderDomain: text('sender_domain').notNull(),
    recipientDomain: text('recipient_domain').notNull(),
    tags: text('tags').array().notNull(),
    writer,
    ...counters,
  },
  (table) => [
    primaryKey({
      columns: [
        table.accountId,
        table.tag,
        table.day,
        table.senderDomain,
        table.recipientDomain,
        table.tags,
        table.writer,
      ],
    }),
  ],
);
