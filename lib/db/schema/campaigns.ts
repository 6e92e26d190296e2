import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

export type CampaignValidationError = { field: string; message: string };

/** One A/B variant as stored: what it omits (null) comes from the campaign; html_content is rendered. */
export type CampaignVariant = {
  id: string;
  name: string;
  subject: string | null;
  fromName: string | null;
  /** Absent in variants saved before preheaders: the campaign's own is used. */
  preheader?: string | null;
  format: 'html' | 'markdown' | 'blocks' | null;
  htmlContent: string | null;
  textContent: string | null;
  markdownContent: string | null;
  blocksContent: unknown;
  templateId: string | null;
  /** The published version of `templateId` pinned when sending started; absent before (and in drafts). */
  templateVersion?: number | null;
};
export type CampaignAbTest = { testPercent: number; metric: 'opens' | 'clicks'; waitMinutes: number };

/**
 * A marketing campaign (marketing-api.md, Campaigns): its design and target lists while a draft,
 * then its progress. Status: draft -> validating -> scheduled -> sending -> sent; validating goes
 * back to draft with `validation_errors` when a check fails; `sending <-> paused`, and scheduled,
 * sending or paused -> `cancelled`. Deleting (drafts only) removes the row.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    status: text('status').notNull().default('draft'),
    fromEmail: text('from_email'),
    fromName: text('from_name'),
    replyTo: jsonb('reply_to').$type<{ email: string; name: string | null }>(),
    subject: text('subject'),
    htmlContent: text('html_content'),
    textContent: text('text_content'),
    // As on templates: html_content is rendered from a markdown or blocks source.
    format: text('format').notNull().default('html'),
    markdownContent: text('markdown_content'),
    blocksContent: jsonb('blocks_content').$type<unknown>(),
    textGenerated: boolean('text_generated').notNull().default(false),
    preheader: text('preheader'),
    templateId: uuid('template_id'),
    // Chosen by the sender, or frozen to the latest published version when validation passes.
    templateVersion: integer('template_version'),
    listIds: uuid('list_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    // Narrowing and exclusions of the audience (marketing-api.md Part 2, Segments).
    segmentIds: uuid('segment_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    excludeListIds: uuid('exclude_list_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    excludeSegmentIds: uuid('exclude_segment_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    // null: the account's tracking defaults at the time of sending.
    trackOpens: boolean('track_opens'),
    trackClicks: boolean('track_clicks'),
    sendAt: timestampColumn('send_at'),
    validationErrors: jsonb('validation_errors')
      .$type<CampaignValidationError[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    // The audience frozen when sending starts (campaign_recipients), and how many are queued so far.
    recipientCount: integer('recipient_count'),
    queuedCount: integer('queued_count').notNull().default(0),
    // The audience is frozen in parts (snapshotAudienceChunk) while the campaign is still scheduled:
    // the last contact id looked at, committed with its part. Reset when the campaign is validated.
    snapshotThrough: uuid('snapshot_through'),
    // Recipients are queued in contact id order; the last one queued, committed with its batch.
    queuedThrough: uuid('queued_through'),
    // When the last recipient was queued; the campaign is `sent` (completed_at) once every message has an outcome.
    queuedAt: timestampColumn('queued_at'),
    startedAt: timestampColumn('started_at'),
    // A/B test (lib/core/campaigns/internal/ab-test.ts): null on a plain campaign.
    variants: jsonb('variants').$type<CampaignVariant[]>(),
    abTest: jsonb('ab_test').$type<CampaignAbTest>(),
    // testing -> waiting -> winner_sent, each change committed with what it makes durable.
    abPhase: text('ab_phase'),
    winnerVariantId: text('winner_variant_id'),
    testQueuedAt: timestampColumn('test_queued_at'),
    abWaitUntil: timestampColumn('ab_wait_until'),
    completedAt: timestampColumn('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('campaigns_account_idx').on(table.accountId, table.id),
    // The campaign worker looks only at campaigns with work to do.
    index('campaigns_pending_idx')
      .on(table.status, table.sendAt)
      .where(sql`${table.status} in ('validating', 'scheduled', 'sending')`),
  ],
);

/**
 * The audience snapshot: who the campaign goes to, each address once, frozen when sending starts so
 * that list changes during sending change nothing. Queued in contact id order up to the campaign's
 * `queued_through`, which moves in the transaction that queues each batch: a crash neither loses
 * nor repeats anyone, and no recipient row is written per message.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    // No foreign key: checking it per row was a third of freezing a large audience. Only drafts are
    // deleted (deleteCampaign), and it deletes their recipients itself.
    campaignId: uuid('campaign_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    accountId: uuid('account_id').notNull(),
    email: text('email').notNull(),
    // The A/B variant of a test recipient, drawn when the audience is frozen; null: the rest (the winner's).
    variantId: text('variant_id'),
    // Set by the campaign's unsubscribe link (one-click or the page).
    unsubscribedAt: timestampColumn('unsubscribed_at'),
  },
  (table) => [
    primaryKey({ columns: [table.campaignId, table.contactId] }),
    // The report's latest unsubscribes: the few who did, not the whole audience.
    index('campaign_recipients_unsubscribed_idx')
      .on(table.campaignId, table.unsubscribedAt)
      .where(sql`${table.unsubscribedAt} is not null`),
  ],
);

const tally = (name: string) => integer(name).notNull().default(0);

/**
 * A campaign's numbers, counted as events happen (delivery outcomes, first opens and clicks,
 * complaints, late bounces, unsubscribes), so that reading them never scans its messages. `deferred`
 * is how many wait for a retry now. Each writer counts in its own row, as the statistics do
 * (lib/core/statistics/counter-writers.ts): readers sum a campaign's rows.
 */
export const campaignCounters = pgTable(
  'campaign_counters',
  {
    campaignId: uuid('campaign_id').notNull(),
    writer: smallint('writer').notNull().default(0),
    accountId: uuid('account_id').notNull(),
    delivered: tally('delivered'),
    deferred: tally('deferred'),
    bounced: tally('bounced'),
    failed: tally('failed'),
    suppressed: tally('suppressed'),
    opened: tally('opened'),
    clicked: tally('clicked'),
    complained: tally('complained'),
    unsubscribed: tally('unsubscribed'),
    // Recipients a cancel took out: their queued messages, and those never queued.
    cancelled: tally('cancelled'),
    // Every open and click; `opened` and `clicked` count the messages opened and clicked (unique).
    totalOpens: tally('total_opens'),
    totalClicks: tally('total_clicks'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.writer] })],
);

/** The report's timeline: a campaign's deliveries, opens and clicks (every one) per hour, per writer. */
export const campaignHourCounters = pgTable(
  'campaign_hour_counters',
  {
    campaignId: uuid('campaign_id').notNull(),
    hour: timestampColumn('hour').notNull(),
    writer: smallint('writer').notNull().default(0),
    accountId: uuid('account_id').notNull(),
    delivered: tally('delivered'),
    opened: tally('opened'),
    clicked: tally('clicked'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.hour, table.writer] })],
);

/**
 * The report's links: clicks of a campaign per URL, and how many (message, URL) pairs were clicked.
 * Keyed by the URL's MD5, since a URL may exceed what a btree entry holds.
 */
export const campaignLinkCounters = pgTable(
  'campaign_link_counters',
  {
    campaignId: uuid('campaign_id').notNull(),
    urlHash: text('url_hash').notNull(),
    writer: smallint('writer').notNull().default(0),
    accountId: uuid('account_id').notNull(),
    url: text('url').notNull(),
    clicks: tally('clicks'),
    uniqueClicks: tally('unique_clicks'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.urlHash, table.writer] })],
);

/** The report's mailbox providers (gmail, microsoft, yahoo, apple, other): messages per outcome, per writer. */
export const campaignProviderCounters = pgTable(
  'campaign_provider_counters',
  {
    campaignId: uuid('campaign_id').notNull(),
    provider: text('provider').notNull(),
    writer: smallint('writer').notNull().default(0),
    accountId: uuid('account_id').notNull(),
    delivered: tally('delivered'),
    bounced: tally('bounced'),
    deferred: tally('deferred'),
    opened: tally('opened'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.provider, table.writer] })],
);

/** An A/B campaign's numbers per variant (its test recipients, then the rest under the winner), per writer. */
export const campaignVariantCounters = pgTable(
  'campaign_variant_counters',
  {
    campaignId: uuid('campaign_id').notNull(),
    variantId: text('variant_id').notNull(),
    writer: smallint('writer').notNull().default(0),
    accountId: uuid('account_id').notNull(),
    recipients: tally('recipients'),
    delivered: tally('delivered'),
    deferred: tally('deferred'),
    bounced: tally('bounced'),
    failed: tally('failed'),
    suppressed: tally('suppressed'),
    opened: tally('opened'),
    clicked: tally('clicked'),
    complained: tally('complained'),
    unsubscribed: tally('unsubscribed'),
    cancelled: tally('cancelled'),
    totalOpens: tally('total_opens'),
    totalClicks: tally('total_clicks'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.variantId, table.writer] })],
);
