import { actorOf, recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { signalWork } from '@/lib/core/shared/work-signal';
import { defineVerb } from '@/lib/core/verb';
import { and, count, eq, inArray } from 'drizzle-orm';
import { accounts, contactExports } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { newId } from '@/lib/shared/ids';
import { presentContactExport } from './internal/present';
import { selectionCondition, type ExportSelection } from './internal/selection-condition';
import { createContactExportSchema, MAX_ACTIVE_EXPORTS } from './schemas';

/**
 * `POST /contacts/export`: checks the selection (a list or segment of the account) and queues the
 * job for the worker role, which writes the CSV; GET .../contacts/export/{export_id} shows its
 * progress. Reading contacts is what it needs (contacts:read); queueing it is still audited. At most
 * MAX_ACTIVE_EXPORTS per account are queued or running: each holds a worker for the length of a full read.
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
      // The account row's lock makes parallel requests take their turn at the count below.
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
      const [{ active }] = await tx
        .select({ active: count() })
        .from(contactExports)
        .where(and(eq(contactExports.accountId, accountId), inArray(contactExports.status, ['queued', 'running'])));
      if (active >= MAX_ACTIVE_EXPORTS)
        throw conflict(
          `this account already has ${active} exports queued or running, the most at once; start another when one of them is done`,
        );
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
