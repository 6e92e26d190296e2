import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { campaigns, segments } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';
import { getSegmentInAccount } from './internal/compile-segment-filter';
import { segmentPathSchema } from './schemas';

/** Campaigns on their way out: they read their segments until the audience is frozen. */
const IN_FLIGHT = ['validating', 'scheduled', 'sending', 'paused'];

/**
 * Deletes a segment, unless a campaign in flight narrows or excludes with it (409 naming them):
 * drafts that use it are told at validation. The segment row is locked first, so that a campaign
 * scheduled meanwhile is seen.
 */
export const deleteSegment = defineVerb({
  scope: 'contacts:delete',
  input: segmentPathSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    const accountId = principal.targetAccountId;
    const segment = await getSegmentInAccount(db, accountId, input.segment_id);
    await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: segments.id })
        .from(segments)
        .where(and(eq(segments.accountId, accountId), eq(segments.id, segment.id)))
        .for('update');
      if (!locked) throw notFound('segment not found');
      const using = await tx
        .select({ name: campaigns.name })
        .from(campaigns)
        .where(
          and(
            eq(campaigns.accountId, accountId),
            inArray(campaigns.status, IN_FLIGHT),
            or(
              sql`${segment.id}::uuid = any(${campaigns.segmentIds})`,
              sql`${segment.id}::uuid = any(${campaigns.excludeSegmentIds})`,
            ),
          ),
        )
        .limit(5);
      if (using.length)
        throw conflict(
          `segment ${segment.name} is used by ${using.length === 1 ? 'a campaign' : 'campaigns'} being sent or scheduled (${using.map((row) => row.name).join(', ')}); cancel or unschedule ${using.length === 1 ? 'it' : 'them'} first`,
        );
      await tx.delete(segments).where(and(eq(segments.accountId, accountId), eq(segments.id, segment.id)));
      await recordAuditEvent(tx, ctx, { action: 'segment.delete', resource: { type: 'segment', id: segment.id } });
    });
    return { message: `segment ${segment.id} (${segment.name}) deleted` };
  },
});
