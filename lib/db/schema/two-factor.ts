import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { id, timestampColumn } from './columns';

/**
 * A person's ten single-use recovery codes, each stored only as its SHA-256 (they are random, not
 * chosen by people, so a fast hash suffices). A used code keeps its row with `used_at` set.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestampColumn('used_at'),
    createdAt: timestampColumn('created_at')
      .notNull()
      .default(sql`now()`),
  },
  (table) => [uniqueIndex('recovery_codes_user_hash_idx').on(table.userId, table.codeHash)],
);
