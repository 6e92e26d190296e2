import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { mediaFiles } from '@/lib/db/schema';
import { getMediaInAccount } from './internal/queries';
import { mediaPathSchema } from './schemas';

/**
 * Removes the file and frees its room in the quota. Its URL is 404 from now on, also in mail
 * already sent: the dashboard says so before it asks.
 */
export const deleteMedia = defineVerb({
  scope: 'templates:delete',
  input: mediaPathSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    const accountId = principal.targetAccountId;
    const row = await getMediaInAccount(db, accountId, input.media_id);
    await db.transaction(async (tx) => {
      await tx.delete(mediaFiles).where(and(eq(mediaFiles.accountId, accountId), eq(mediaFiles.id, row.id)));
      await recordAuditEvent(tx, ctx, { action: 'media.delete', resource: { type: 'media', id: row.id } });
    });
    return { message: `media file ${row.id} (${row.name}) deleted` };
  },
});
