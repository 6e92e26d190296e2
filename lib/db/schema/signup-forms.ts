import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';
import { contacts } from './contacts';

/**
 * A signup form (marketing-api.md, Signup forms and double opt-in): a hosted page and an embeddable
 * snippet that add whoever signs up to `list_ids`. Deleting one sets `deleted_at`; its public page is
 * then 404 and its unused confirmation links stop working.
 */
export const signupForms = pgTable(
  'signup_forms',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    listIds: uuid('list_ids').array().notNull(),
    isDoubleOptIn: boolean('is_double_opt_in').notNull().default(true),
    // Attribute keys asked for besides email and names, in the order shown.
    fields: jsonb('fields').$type<string[]>().notNull().default([]),
    confirmationSubject: text('confirmation_subject'),
    confirmationText: text('confirmation_text'),
    redirectUrl: text('redirect_url'),
    // Signups accepted (not dropped as a robot's or over a limit), for the dashboard.
    signupCount: integer('signup_count').notNull().default(0),
    deletedAt: timestampColumn('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('signup_forms_account_idx')
      .on(table.accountId, table.id)
      .where(sql`${table.deletedAt} is null`),
  ],
);

/**
 * A double opt-in confirmation link: only the SHA-256 of its token is kept, so that a database
 * reader cannot confirm anyone. It works once (`used_at`) and until `expires_at`.
 */
export const signupConfirmations = pgTable(
  'signup_confirmations',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    formId: uuid('form_id')
      .notNull()
      .references(() => signupForms.id),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    listIds: uuid('list_ids').array().notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
    createdAt: createdAt(),
  },
  (table) => [
    // The latest link of a contact for a form: at most one mail per resend window.
    index('signup_confirmations_contact_idx').on(table.formId, table.contactId, table.createdAt),
  ],
);
