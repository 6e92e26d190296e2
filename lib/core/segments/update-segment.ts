import { and, eq } from 'drizzle-orm';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { givenFields } from '@/lib/core/audit/given-fields';
import { defineVerb } from '@/lib/core/verb';
import { segments } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { compileSegmentFilter, getSegmentInAccount } from './internal/compile-segment-filter';
import { presentSegmentWithCount } from './internal/segment-contacts';
import { segmentPathSchema, updateSegmentSchema } from './schemas';

/**
 * Renames a segment or replaces its filter (omitted fields stay). A campaign already sending keeps
 * the audience it froze; one not yet started reads the new filter when it starts.
 */
export const updateSegment = defineVerb({
  scope: 'contacts:write',
  input: updateSegmentSchema.extend(segmentPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const current = await getSegmentInAccount(db, accountId, input.segment_id);
    if (input.filter) await compileSegmentFilter(db, accountId, input.filter);
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(segments)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.filter !== undefined ? { filter: input.filter } : {}),
          updatedAt: now(),
        })
        .where(and(eq(segments.accountId, accountId), eq(segments.id, current.id)))
        .returning();
      if (!changed) throw notFound('segment not found');
      await recordAuditEvent(tx, ctx, {
        action: 'segment.update',
        resource: { type: 'segment', id: changed.id },
        changes: givenFields(input, ['segment_id']),
      });
      return changed;
    });
    return presentSegmentWithCount(db, row, now());
  },
});
