import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { mediaFiles } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { MediaRow } from './present';

/** Every column but the bytes. */
export const MEDIA_COLUMNS = {
  id: mediaFiles.id,
  accountId: mediaFiles.accountId,
  name: mediaFiles.name,
  contentType: mediaFiles.contentType,
  extension: mediaFiles.extension,
  sizeBytes: mediaFiles.sizeBytes,
  width: mediaFiles.width,
  height: mediaFiles.height,
  sha256: mediaFiles.sha256,
  createdAt: mediaFiles.createdAt,
};

/** A file of the account (without its bytes), or 404. */
export async function getMediaInAccount(db: DbOrTx, accountId: string, mediaId: string): Promise<MediaRow> {
  if (!isUuid(mediaId)) throw notFound('media file not found');
  const [row] = await db
    .select(MEDIA_COLUMNS)
    .from(mediaFiles)
    .where(and(eq(mediaFiles.accountId, accountId), eq(mediaFiles.id, mediaId.toLowerCase())))
    .limit(1);
  if (!row) throw notFound('media file not found');
  return row;
}

/** The bytes the account's library holds in all. */
export async function usedMediaBytes(db: DbOrTx, accountId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${mediaFiles.sizeBytes}), 0)` })
    .from(mediaFiles)
    .where(eq(mediaFiles.accountId, accountId));
  return Number(row?.used ?? 0);
}
