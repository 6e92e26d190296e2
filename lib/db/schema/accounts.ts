import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * People. A user with a proven address is global (one per email, a member of any number of
 * accounts); one made from a link handed to an inviter stays inside that account (see
 * lib/core/users/internal/email-identity.ts).
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    // When the address was proven (a mailed link, the setup page, the operator's CLI); null: never.
    emailVerifiedAt: timestampColumn('email_verified_at'),
    // For an unproven user: the one account it may belong to (the one whose handed link made it).
    limitedToAccountId: uuid('limited_to_account_id').references((): AnyPgColumn => accounts.id),
    // Bumped to revoke every session of the user (sessions carry the version they were issued with).
    sessionVersion: integer('session_version').notNull().default(0),
    // TOTP (RFC 6238): the secret under the master key (SecretBox), set at setup and kept once enabled;
    // the last time step accepted, so that a code is never accepted twice.
    twoFactorSecretEncrypted: text('two_factor_secret_encrypted'),
    twoFactorEnabledAt: timestampColumn('two_factor_enabled_at'),
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_verified_email_idx')
      .on(table.email)
      .where(sql`${table.emailVerifiedAt} is not null`),
    uniqueIndex('users_unverified_email_idx')
      .on(table.email, table.limitedToAccountId)
      .where(sql`${table.emailVerifiedAt} is null`),
  ],
);

/** A tenant. Sub accounts are accounts with a parent. */
export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    parentAccountId: uuid('parent_account_id').references((): AnyPgColumn => accounts.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
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
    // Members must sign in with two factors: one without is led to set it up and refused until then.
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestampColumn('deleted_at'),
  },
  (table) => [
    index('accounts_parent_idx')
      .on(table.parentAccountId)
      .where(sql`${table.parentAccountId} is not null`),
  ],
);

/** A user's role in an account: Administrator, Developer, Analyst or Billing Manager. */
export const memberships = pgTable(
  'memberships',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.userId] }), index('memberships_user_idx').on(table.userId)],
);

/**
 * An invitation to join an account, for an email that has no user yet. The token is stored only as
 * its SHA-256; `userId` is reserved up front so that the member answer can name the user to come.
 * An invitation is pending while neither accepted nor revoked, and usable while also not expired.
 */
export const memberInvitations = pgTable(
  'member_invitations',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: uuid('user_id').notNull(),
    email: text('email').notNull(),
    name: text('name'),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id),
    expiresAt: timestampColumn('expires_at').notNull(),
    lastSentAt: timestampColumn('last_sent_at').notNull(),
    sendCount: integer('send_count').notNull().default(1),
    // Whether the current link went to the address by mail (not handed to the inviter to pass on).
    isMailed: boolean('is_mailed').notNull().default(false),
    acceptedAt: timestampColumn('accepted_at'),
    revokedAt: timestampColumn('revoked_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // One pending invitation per address and account; a new one needs the old one revoked or used.
    uniqueIndex('member_invitations_pending_idx')
      .on(table.accountId, table.email)
      .where(sql`${table.acceptedAt} is null and ${table.revokedAt} is null`),
  ],
);
