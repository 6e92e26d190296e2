import { eq } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { mediaFiles } from '@/lib/db/schema';
import { presentMedia, type MediaRow } from './internal/present';
import { MEDIA_COLUMNS } from './internal/queries';
import { listMediaQuerySchema } from './schemas';

/** The account's media library, newest first, without the bytes. */
export const listMedia = defineVerb({
  scope: 'templates:read',
  input: listMediaQuerySchema,
  async run({ db, config, principal }, query) {
    return paginate(db, {
      table: mediaFiles,
      idColumn: mediaFiles.id,
      columns: MEDIA_COLUMNS,
      where: eq(mediaFiles.accountId, principal.targetAccountId),
      query,
      map: (rows: MediaRow[]) => rows.map((row) => presentMedia(config, row)),
    });
  },
});
