import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { segments } from '@/lib/db/schema';
import { compileSegmentFilter } from './internal/compile-segment-filter';
import { presentSegmentWithCount } from './internal/segment-contacts';
import { createSegmentSchema } from './schemas';

/** A saved filter; its leaves are checked against the account first (400 naming the leaf). */
export const createSegment = defineVerb({
  scope: 'contacts:write',
  input: createSegmentSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    await compileSegmentFilter(db, accountId, input.filter);
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(segments)
        .values({ accountId, name: input.name, filter: input.filter, createdAt: at, updatedAt: at })
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'segment.create', resource: { type: 'segment', id: created!.id } });
      return created!;
    });
    return presentSegmentWithCount(db, row, now());
  },
});
