import { actorOf, recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { signalWork } from '@/lib/core/shared/work-signal';
import { defineVerb } from '@/lib/core/verb';
import { contactExports } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { presentContactExport } from './internal/present';
import { selectionCondition, type ExportSelection } from './internal/selection-condition';
import { createContactExportSchema } from './schemas';

/**
 * `POST /contacts/export`: checks the selection (a list or segment of the account) and queues the
 * job for the worker role, which writes the CSV; GET .../contacts/export/{export_id} shows its
 * progress. Reading contacts is what it needs (contacts:read); queueing it is still audited.
 */
export const createContactExport = defineVerb({
  scope: 'contacts:read',
  input: createContactExportSchema,
  async run(ctx, input) {
    const accountId = ctx.principal.targetAccountId;
    const selection: ExportSelection = {};
    if (input.list_id !== undefined) selection.list_id = input.list_id.toLowerCase();
    if (input.segment_id !== undefined) selection.segment_id = input.segment_id.toLowerCase();
    if (input.filter !== undefined) selection.filter = input.filter;
    // Refused now rather than failed later: an unknown list or an invalid filter is the caller's to fix.
    await selectionCondition(ctx.db, accountId, selection);
    const exportId = newId();
    const row = await ctx.db.transaction(async (tx) => {
      const [queued] = await tx
        .insert(contactExports)
        .values({
          id: exportId,
          accountId,
          requestedBy: actorOf(ctx.principal),
          selection,
          status: 'queued',
          createdAt: ctx.now(),
          updatedAt: ctx.now(),
        })
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'contact.export', resource: { type: 'contact_export', id: exportId } });
      return queued;
    });
    signalWork('contact-exports');
    return presentContactExport(row, ctx.config.publicUrl);
  },
});
