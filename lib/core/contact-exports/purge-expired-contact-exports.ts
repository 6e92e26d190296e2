import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { contactExports } from '@/lib/db/schema';
import { removeExportFiles } from './internal/export-file';
import { EXPIRED_ROW_KEPT_MS } from './schemas';

/**
 * The periodic job: deletes the files of exports past `expires_at` (24 hours after they finished)
 * and marks them expired; a week later their rows go too. Unsafe: every account's exports.
 */
export async function unsafePurgeExpiredContactExports(
  services: Pick<Services, 'db' | 'config'>,
  now: Date,
): Promise<{ expired: number; deleted: number }> {
  const { db, config } = services;
  const due = await db
    .select({ id: contactExports.id })
    .from(contactExports)
    .where(and(inArray(contactExports.status, ['done', 'failed']), lt(contactExports.expiresAt, now)))
    .limit(1000);
  for (const { id } of due) {
    await removeExportFiles(config, id);
    await db
      .update(contactExports)
      .set({ status: 'expired', fileName: null, updatedAt: now })
      .where(eq(contactExports.id, id));
  }
  const deleted = await db
    .delete(contactExports)
    .where(
      and(
        eq(contactExports.status, 'expired'),
        lt(contactExports.expiresAt, new Date(now.getTime() - EXPIRED_ROW_KEPT_MS)),
      ),
    )
    .returning({ id: contactExports.id });
  return { expired: due.length, deleted: deleted.length };
}
