import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt, id, timestampColumn } from './columns';

/**
 * One row per dashboard sign-in: the cookie carries its id (`sid`) and every use checks that the row
 * is not ended, so a person (or an administrator) can end one device at once. `last_seen_at` moves
 * at most once a minute.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestampColumn('last_seen_at')
      .notNull()
      .default(sql`now()`),
    ip: text('ip'),
    userAgent: text('user_agent'),
    endedAt: timestampColumn('ended_at'),
  },
  // A person's sessions page, and ending all of them.
  (table) => [index('user_sessions_user_idx').on(table.userId, table.createdAt)],
);

/**
 * Password reset links: only the SHA-256 of the token is kept. A link works once, until
 * `expires_at`; asking for a new one leaves older ones valid until they expire or one is used.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
  },
  (table) => [uniqueIndex('password_reset_tokens_hash_idx').on(table.tokenHash)],
);
