import { and, eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { mediaFiles } from '@/lib/db/schema';
import { isUuid } from '@/lib/shared/ids';

const PUBLIC_NAME = /^([0-9a-f-]{36})\.(png|jpg|gif|webp)$/;

/**
 * The file behind a public media URL (`{id}.{extension}`), for anyone: it appears in mail, so no
 * account is asked for (hence unsafe: no tenancy, by design). Only an exact id and its own extension match; anything else is null (404).
 */
export async function unsafeFindPublicMedia(
  services: Pick<Services, 'db'>,
  fileName: string,
): Promise<{ contentType: string; sha256: string; content: Buffer } | null> {
  const match = PUBLIC_NAME.exec(fileName);
  if (!match || !isUuid(match[1])) return null;
  const [row] = await services.db
    .select({ contentType: mediaFiles.contentType, sha256: mediaFiles.sha256, content: mediaFiles.content })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.id, match[1]), eq(mediaFiles.extension, match[2])))
    .limit(1);
  return row ?? null;
}
