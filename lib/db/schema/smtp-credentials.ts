import { boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, updatedAt } from './columns';

/**
 * Credentials for SMTP submission. The username is generated and unique across installations'
 * accounts (AUTH names no account); the password is a generated 40-character secret, so SHA-256 is
 * enough (as API keys): it is shown once and never stored in plain form.
 */
export const smtpCredentials = pgTable(
  'smtp_credentials',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    // 'global' | 'scoped'; a scoped credential's domains are in smtp_credential_domains.
    scope: text('scope').notNull(),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('smtp_credentials_username_idx').on(table.username),
    index('smtp_credentials_account_idx').on(table.accountId, table.id),
  ],
);

/** The domains (by name) a scoped credential may send from. */
export const smtpCredentialDomains = pgTable(
  'smtp_credential_domains',
  {
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => smtpCredentials.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
  },
  (table) => [primaryKey({ columns: [table.credentialId, table.domain] })],
);
