import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

export type CampaignValidationError = { field: string; message: string };

/**
 * A marketing campaign (marketing-api.md, Campaigns): its design and target lists while a draft,
 * then its progress. Status: draft -> validating -> scheduled -> sending -> sent; validating goes
 * back to draft with `validation_errors` when a check fails. Deleting (drafts only) removes the row.
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
    templateId: uuid('template_id'),
    // Chosen by the sender, or frozen to the latest published version when validation passes.
    templateVersion: integer('template_version'),
    listIds: uuid('list_ids').array().notNull().default(sql`'{}'::uuid[]`),
    // null: the account's tracking defaults at the time of sending.
    trackOpens: boolean('track_opens'),
    trackClicks: boolean('track_clicks'),
    sendAt: timestampColumn('send_at'),
    validationErrors: jsonb('validation_errors').$type<CampaignValidationError[]>().notNull().default(sql`'[]'::jsonb`),
    // The audience frozen when sending starts (campaign_recipients), and how many are queued so far.
    recipientCount: integer('recipient_count'),
    queuedCount: integer('queued_count').notNull().default(0),
    // Recipients are queued in contact id order; the last one queued, committed with its batch.
    queuedThrough: uuid('queued_through'),
    startedAt: timestampColumn('started_at'),
    completedAt: timestampColumn('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('campaigns_account_idx').on(table.accountId, table.id),
    // The campaign worker looks only at campaigns with work to do.
    index('campaigns_pending_idx').on(table.status, table.sendAt).where(sql`${table.status} in ('validating', 'scheduled', 'sending')`),
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
    // Set by the campaign's unsubscribe link (one-click or the page).
    unsubscribedAt: timestampColumn('unsubscribed_at'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.contactId] })],
);
