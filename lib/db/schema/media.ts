import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { bytea, createdAt, id } from './columns';

/**
 * An account's media library: images for mail, served publicly at `/media/{id}.{extension}`. The
 * bytes live in the row (not in DATA_DIR) so that a backup holds them and every process of a
 * PostgreSQL scale-out serves them; files are small (5 MB at most) and written once.
 */
export const mediaFiles = pgTable(
  'media_files',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    // For display only (sanitised); the served URL never contains it.
    name: text('name').notNull(),
    // Detected from the content: image/png, image/jpeg, image/gif or image/webp.
    contentType: text('content_type').notNull(),
    extension: text('extension').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('media_files_account_idx').on(table.accountId, table.id)],
);
