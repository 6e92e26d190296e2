import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/** People. Global: one user can be a member of several accounts. */
export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  name: text('name'),
  passwordHash: text('password_hash').notNull(),
  // Bumped to revoke every session of the user (sessions carry the version they were issued with).
  sessionVersion: integer('session_version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A tenant. Sub accounts are accounts with a parent. */
export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    parentAccountId: uuid('parent_account_id').references((): AnyPgColumn => accounts.id),
    ownerId: uuid('owner_id').notNull().references(() => users.id),
    name: text('name').notNull(),
    website: text('website'),
    about: text('about'),
    // 'standard' | 'partner'; partner unlocks bring-your-own DKIM and sub accounts. Set by operators.
    tier: text('tier').notNull().default('standard'),
    // 'active' | 'suspended' | 'parent-suspended' | 'deleted'
    status: text('status').notNull().default('active'),
    suspensionReason: text('suspension_reason'),
    trackOpens: boolean('track_opens').notNull().default(false),
    trackClicks: boolean('track_clicks').notNull().default(false),
    rejectBadRecipients: boolean('reject_bad_recipients').notNull().default(false),
    rejectMistypedRecipients: boolean('reject_mistyped_recipients').notNull().default(false),
    messageMetadataRetention: integer('message_metadata_retention').notNull().default(30),
    messageDataRetention: integer('message_data_retention').notNull().default(7),
    monthlyCredit: bigint('monthly_credit', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestampColumn('deleted_at'),
  },
  (table) => [index('accounts_parent_idx').on(table.parentAccountId).where(sql`${table.parentAccountId} is not null`)],
);

/** A user's role in an account: Administrator, Developer, Analyst or Billing Manager. */
export const memberships = pgTable(
  'memberships',
  {
    accountId: uuid('account_id').notNull().references(() => accounts.id),
    userId: uuid('user_id').notNull().references(() => users.id),
    role: text('role').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.userId] }), index('memberships_user_idx').on(table.userId)],
);
