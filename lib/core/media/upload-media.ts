import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { accounts, mediaFiles } from '@/lib/db/schema';
import { invalidInput, tooLarge } from '@/lib/shared/errors';
import { newId } from '@/lib/shared/ids';
import { detectImage } from './internal/detect-image';
import { sanitizeMediaName } from './internal/media-name';
import { presentMedia } from './internal/present';
import { MEDIA_COLUMNS, usedMediaBytes } from './internal/queries';
import { readUpload } from './internal/read-upload';
import { uploadMediaSchema } from './schemas';

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * `POST /media`: reads the file whole, checks what it is by its bytes (PNG, JPEG, GIF or WebP; no
 * SVG, no polyglot), then stores it in one statement: an upload cut short stores nothing. The
 * account's row is locked while the quota is summed, so parallel uploads cannot pass it together.
 */
export const uploadMedia = defineVerb({
  scope: 'templates:write',
  input: uploadMediaSchema,
  async run(ctx, input) {
    const upload = await readUpload(input);
    const detection = detectImage(upload.bytes);
    if (!detection.ok) throw invalidInput(detection.reason, 'file');
    const { image } = detection;
    const accountId = ctx.principal.targetAccountId;
    const quota = ctx.config.mediaQuotaBytes;
    const row = await ctx.db.transaction(async (tx) => {
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
      const used = await usedMediaBytes(tx, accountId);
      if (used + upload.bytes.length > quota)
        throw tooLarge(
          `the media library is full: ${megabytes(used)} of ${megabytes(quota)} used, this file needs ${megabytes(upload.bytes.length)}; delete files first`,
        );
      const [inserted] = await tx
        .insert(mediaFiles)
        .values({
          id: newId(),
          accountId,
          name: sanitizeMediaName(upload.name, `image.${image.extension}`),
          contentType: image.contentType,
          extension: image.extension,
          sizeBytes: upload.bytes.length,
          width: image.width,
          height: image.height,
          sha256: createHash('sha256').update(upload.bytes).digest('hex'),
          content: upload.bytes,
          createdAt: ctx.now(),
        })
        .returning(MEDIA_COLUMNS);
      await recordAuditEvent(tx, ctx, { action: 'media.upload', resource: { type: 'media', id: inserted.id } });
      return inserted;
    });
    return presentMedia(ctx.config, row);
  },
});
