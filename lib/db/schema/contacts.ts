import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { bytea, createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * The audience of campaigns (marketing-api.md, rules R1-R12 of service-spec.md). Contacts are
 * account-global; lists are static containers; a membership carries its own per-list consent.
 */

/** A contact: one email address per account, lowercased and trimmed before it is stored. */
export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    // Values for the account's attribute definitions (R4): canonical on write, returned as stored.
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    unsubscribed: boolean('unsubscribed').notNull().default(false),
    unsubscribedAt: timestampColumn('unsubscribed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('contacts_account_email_idx').on(table.accountId, table.email),
    index('contacts_account_idx').on(table.accountId, table.id),
    // Attribute filters in the dashboard (`attributes @> {...}`).
    index('contacts_attributes_idx').using('gin', table.attributes),
  ],
);

/**
 * What happened to a contact's subscription, newest last (R3: unsubscribing keeps history). Kept
 * after the contact is deleted, so a re-created address can be told apart from a new one.
 */
export const contactSubscriptionEvents = pgTable(
  'contact_subscription_events',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    email: text('email').notNull(),
    // 'unsubscribed' | 'resubscribed'
    type: text('type').notNull(),
    // 'api' | 'dashboard' | 'import' | 'unsubscribe_link' ...: who did it.
    source: text('source').notNull(),
    listId: uuid('list_id'),
    createdAt: createdAt(),
  },
  (table) => [index('contact_subscription_events_contact_idx').on(table.accountId, table.contactId, table.id)],
);

/** Attribute keys a contact may hold, with their type (R4). Managed in the dashboard only. */
export const contactAttributeDefinitions = pgTable(
  'contact_attribute_definitions',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    // 'string' | 'number' | 'boolean' | 'date' | 'datetime'
    type: text('type').notNull(),
    label: text('label'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.key] })],
);

/** A static, private, single opt-in list (R6). Deleting it sets `deleted_at` and keeps its memberships (R10). */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description'),
    // The name contacts see (preference page, signup confirmation); without one they see `name`.
    publicName: text('public_name'),
    deletedAt: timestampColumn('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('contact_lists_account_idx')
      .on(table.accountId, table.id)
      .where(sql`${table.deletedAt} is null`),
  ],
);

/**
 * A contact's membership of a list, with its own consent (R7): unconfirmed, confirmed (the default,
 * R8), unsubscribed, complained (never written by a request, and frozen, R9). Removing a contact
 * from a list deletes the row (R11); deleting the contact deletes its rows.
 */
export const listMemberships = pgTable(
  'list_memberships',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    subscriptionStatus: text('subscription_status').notNull().default('confirmed'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.listId, table.contactId] }),
    // A contact's memberships, paged by list id.
    index('list_memberships_contact_idx').on(table.contactId, table.listId),
    // Member counts per status, and a list's members by status.
    index('list_memberships_list_status_idx').on(table.listId, table.subscriptionStatus, table.contactId),
  ],
);

/**
 * A contact import job (`object: "contact_import"`). The upload is stored in the database in chunks
 * (contact_import_chunks), so that any worker process on any host can run it and a restart resumes
 * after the last committed row (`rows_done`).
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    // 'csv' | 'jsonl'
    format: text('format').notNull(),
    listId: uuid('list_id'),
    // 'receiving' (upload under way, invisible to the API) | 'queued' | 'running' | 'completed' | 'failed'
    status: text('status').notNull().default('queued'),
    sizeBytes: integer('size_bytes').notNull().default(0),
    // Where the last committed batch ended in the upload: progress for the dashboard's bar.
    bytesDone: integer('bytes_done').notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    // The first errors ({ row, email, reason }), capped; error_count counts them all.
    errors: jsonb('errors').$type<{ row: number; email: string | null; reason: string }[]>().notNull().default([]),
    failureReason: text('failure_reason'),
    // Claims so far: an import that keeps taking its worker down fails instead of looping forever.
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    leaseUntil: timestampColumn('lease_until'),
    startedAt: timestampColumn('started_at'),
    finishedAt: timestampColumn('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('contact_imports_account_idx').on(table.accountId, table.id),
    index('contact_imports_due_idx')
      .on(table.createdAt)
      .where(sql`${table.status} in ('queued', 'running')`),
  ],
);

export const contactImportChunks = pgTable(
  'contact_import_chunks',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => contactImports.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.importId, table.seq] })],
);
