import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

export type StructuredContent = {
  from: { email: string; name: string | null };
  subject: string;
  text: string | null;
  html: string | null;
  amp: string | null;
  replyTo: { email: string; name: string | null } | null;
  headers: [string, string][];
  attachments: { fileName: string; contentType: string; contentId: string | null; isInline: boolean; base64: string }[];
  /** Conversation messages: one message with these To and Cc headers for every envelope recipient. */
  to?: { email: string; name: string | null }[];
  cc?: { email: string; name: string | null }[];
};

/** One delivery attempt, as the API shows it (`delivery_attempts`). */
export type DeliveryAttempt = { time: string; log: string; status: string };

/**
 * What a send request said, stored once however many recipients it has. Structured content is
 * rendered and built into MIME by the worker; raw content (SMTP submission) is signed as received.
 */
export const messageContents = pgTable(
  'message_contents',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    // 'structured' | 'raw'
    kind: text('kind').notNull(),
    structured: jsonb('structured').$type<StructuredContent>(),
    raw: text('raw'),
    globalSubstitutions: jsonb('global_substitutions').$type<Record<string, unknown>>(),
    // Substitutions were given: subject and bodies are templates.
    isTemplated: boolean('is_templated').notNull().default(false),
    dataRetainUntil: timestampColumn('data_retain_until').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('message_contents_retain_idx').on(table.dataRetainUntil)],
);

/**
 * One row per recipient. The status column is an internal enum (lib/mail/statuses.ts turns it into
 * the contract's words); the worker claims due rows with FOR UPDATE SKIP LOCKED and a lease.
 */
export const messages = pgTable(
  'messages',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    domainId: uuid('domain_id').notNull(),
    contentId: uuid('content_id').notNull(),
    campaignId: uuid('campaign_id'),
    // The A/B variant whose content this campaign message carries.
    campaignVariantId: text('campaign_variant_id'),
    contactId: uuid('contact_id'),
    direction: text('direction').notNull().default('outbound'),
    messageIdHeader: text('message_id_header').notNull(),
    sender: text('sender').notNull(),
    recipient: text('recipient').notNull(),
    recipientName: text('recipient_name'),
    recipientDomain: text('recipient_domain').notNull(),
    senderDomain: text('sender_domain').notNull(),
    subject: text('subject').notNull().default(''),
    substitutions: jsonb('substitutions').$type<Record<string, unknown>>(),
    // scheduled | queued | deferred | delivered | bounced | failed | suppressed | cancelled
    status: text('status').notNull(),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    sandboxResult: text('sandbox_result'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    trackOpens: boolean('track_opens').notNull().default(false),
    trackClicks: boolean('track_clicks').notNull().default(false),
    firstAttemptAt: timestampColumn('first_attempt_at').notNull(),
    nextAttemptAt: timestampColumn('next_attempt_at'),
    expiresAt: timestampColumn('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestampColumn('lease_until'),
    lockedBy: text('locked_by'),
    // The envelope sender's token, so that an asynchronous bounce can be matched to this message.
    returnPathToken: text('return_path_token').notNull(),
    // Set when the message data went out and only the server's reply was awaited (duplicate window).
    dataSentAt: timestampColumn('data_sent_at'),
    sentAt: timestampColumn('sent_at'),
    deliveredAt: timestampColumn('delivered_at'),
    bounceClassification: text('bounce_classification'),
    // When the first complaint report (ARF) about this message arrived; its status is not changed.
    complainedAt: timestampColumn('complained_at'),
    deliveryAttempts: jsonb('delivery_attempts')
      .$type<DeliveryAttempt[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    openCount: integer('open_count').notNull().default(0),
    clickCount: integer('click_count').notNull().default(0),
    // gmail | microsoft | yahoo | apple | other: from the recipient domain's MX hosts at the first outcome.
    mailboxProvider: text('mailbox_provider'),
    retainUntil: timestampColumn('retain_until').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Every index here is written at acceptance and again at each update that is not HOT, so each
  // one costs throughput. Deliberately absent: return_path_token (the token carries the id, see
  // return-path-token.ts), content_id (purging contents reads the due queue instead) and locked_by
  // (a claim then changes no indexed column, and can update in place; leases are found through the
  // due index, since only due rows are ever claimed).
  (table) => [
    index('messages_account_idx').on(table.accountId, table.id),
    index('messages_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('queued', 'deferred', 'scheduled')`),
    index('messages_account_recipient_idx').on(table.accountId, table.recipient),
    // A campaign's counts and report.
    index('messages_campaign_idx')
      .on(table.campaignId)
      .where(sql`${table.campaignId} is not null`),
    // The report's latest bounces: written only for a campaign's bounced messages.
    index('messages_campaign_bounced_idx')
      .on(table.campaignId, table.updatedAt)
      .where(sql`${table.status} = 'bounced' and ${table.campaignId} is not null`),
    // BRIN: retention expiries follow insertion order closely, and a BRIN costs writes almost nothing.
    index('messages_retain_idx').using('brin', table.retainUntil),
  ],
);

/** Links of a click-tracked message, by position; the click URL carries only the position and a signature. */
export const messageLinks = pgTable(
  'message_links',
  {
    messageId: uuid('message_id').notNull(),
    position: integer('position').notNull(),
    url: text('url').notNull(),
    // A campaign message's clicks of this link: the first of a (message, URL) is a unique click of the URL.
    clickCount: integer('click_count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.messageId, table.position] })],
);
