import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';
import { domains } from './domains';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    label: text('label').notNull(),
    publicKey: text('public_key').notNull().unique(),
    // SHA-256 of the whole secret: a generated 64-character secret needs no slow hash.
    secretHash: text('secret_hash').notNull(),
    // Canonical CIDR blocks; empty means any source IP.
    ipAllowList: text('ip_allow_list')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    lastUsedAt: timestampColumn('last_used_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('api_keys_secret_hash_idx').on(table.secretHash),
    index('api_keys_account_idx').on(table.accountId, table.id),
  ],
);

export const apiKeyScopes = pgTable(
  'api_key_scopes',
  {
    id: id(),
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    // Set for domain-specific scopes (`messages:send:{example.com}`); deleting the domain removes the scope.
    domainId: uuid('domain_id').references(() => domains.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('api_key_scopes_key_scope_idx').on(table.apiKeyId, table.scope),
    index('api_key_scopes_domain_idx')
      .on(table.domainId)
      .where(sql`${table.domainId} is not null`),
  ],
);

/** Keys of the legacy v1 send endpoint (`X-Api-Key`): they can send from any domain of the account. */
export const v1Keys = pgTable(
  'v1_keys',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    label: text('label').notNull(),
    secretHash: text('secret_hash').notNull(),
    // The first characters of the secret, so that people can tell keys apart.
    hint: text('hint').notNull(),
    lastUsedAt: timestampColumn('last_used_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('v1_keys_secret_hash_idx').on(table.secretHash),
    index('v1_keys_account_idx').on(table.accountId, table.id),
  ],
);
